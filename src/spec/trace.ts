import type { Answer, StopReason, Usage } from "./answer.js";
import type { ToolReads } from "./engine.js";
import type { Passage } from "./passage.js";
import type { ToolStatus } from "./tool-result.js";

export type Route = "none" | "rag" | "agentic";

interface EventBase {
  runId: string;
  step: number;
  /** Milliseconds since the run started. */
  t: number;
}

export interface ToolCallRequest {
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  /** The sub-question this call serves, when the planner decomposed the question. */
  subQuestion?: number;
  /**
   * `probe`: a look-up the engine made to decide (route, rank sources, check a name), not a search the plan
   * asked for. It runs through the same executor, trace and budgets; its passages are not evidence.
   */
  purpose?: "probe";
  /**
   * For a multi-hop search: the name it follows (a bridge found in an earlier hop's evidence, or a name the
   * question gives that the first search missed). The next hop starts from the passages that name it.
   */
  follows?: string;
}

export interface SubQuestionGrade {
  index: number;
  text: string;
  /** Share of the sub-question's required terms and entities found in the evidence, 0..1. */
  coverage: number;
  /** Best retrieval confidence, 0..1. */
  confidence: number;
  missing: string[];
  sufficient: boolean;
}

export type CheckpointKind = "after_searches" | "no_results" | "before_answer" | "low_confidence";
export type CheckpointDecision =
  | { action: "continue" }
  | { action: "answer_now" }
  | { action: "rephrase"; query: string }
  | { action: "stop" };

export type TraceEvent =
  | (EventBase & { type: "run-start"; question: string; standaloneQuestion: string; mode: string; model: string })
  | (EventBase & { type: "route"; route: Route; reason: string })
  | (EventBase & { type: "plan"; thought: string; subQuestions: string[]; calls: ToolCallRequest[] })
  | (EventBase & {
      type: "tool-call-start";
      call: ToolCallRequest;
      /** What the tool reads, from its definition (absent in runs saved before tools declared it). */
      reads?: ToolReads;
    })
  | (EventBase & {
      type: "tool-call-end";
      callId: string;
      tool: string;
      status: ToolStatus;
      passages: Pick<Passage, "id" | "docId" | "source" | "score">[];
      rows?: number;
      best?: number;
      cached?: boolean;
      hint?: string;
      /** Set for a probe (see `ToolCallRequest.purpose`). */
      purpose?: "probe";
      ms: number;
    })
  | (EventBase & { type: "grade"; subQuestions: SubQuestionGrade[]; sufficient: boolean; threshold: number })
  | (EventBase & { type: "checkpoint"; checkpoint: CheckpointKind; decision?: CheckpointDecision["action"] })
  | (EventBase & {
      type: "llm-call";
      role: "router" | "planner" | "grader" | "answerer" | "rewriter";
      model: string;
      inputTokens: number;
      outputTokens: number;
      costUsd: number;
      ms: number;
    })
  /**
   * Draft text of an answer being written by a streaming model, as it arrives: a preview, not yet checked
   * (the checked answer follows as `answer-delta` events, or the run refuses). Not kept in the stored trace.
   */
  | (EventBase & { type: "answer-draft-delta"; text: string })
  | (EventBase & { type: "answer-delta"; text: string })
  | (EventBase & { type: "answer-end"; answer: Answer })
  | (EventBase & { type: "run-end"; stopReason: StopReason; usage: Usage; ms: number })
  | (EventBase & { type: "error"; message: string; name: string; cause?: string });

export type TraceEventType = TraceEvent["type"];
