import type { Passage } from "./passage.js";
import type { ToolStatus } from "./tool-result.js";

/**
 * Every reason a run can end with, and no other: each one is produced by the loop (checked in the agent's
 * tests). `fallback`: the planner failed twice, so the run answered (or refused) from one retrieval pass.
 */
export const STOP_REASONS = [
  "answered",
  "no_retrieval_needed",
  "evidence_sufficient",
  "max_steps",
  "max_tool_calls",
  "token_budget",
  "cost_budget",
  "timeout",
  "no_progress",
  "insufficient_evidence",
  "aborted",
  /** The planner failed twice; the answer comes from a single retrieval pass. */
  "fallback",
  /** The tenant's (or key's) daily spend cap left no room for another model call. */
  "spend_cap",
] as const;
export type StopReason = (typeof STOP_REASONS)[number];

export interface Citation {
  n: number;
  passageId: string;
  docId: string;
  /** The passage's source: ids are unique per source, so (source, passageId) names the passage. */
  source: string;
  quote: string;
  /** For a web page: its URL with a text fragment (`#:~:text=`) that opens it at the quoted sentence. */
  url?: string;
  /**
   * Where to look in the document, as its loader names it: `page 3` (PDF), `Sheet1!A3:D3` (spreadsheet row),
   * `slide 2`, `lines 10-42` (code), `message 4` (e-mail). Absent when the document has no such place.
   */
  locator?: string;
}

export interface Usage {
  llmCalls: number;
  /** Tool calls the plan made (probes are counted apart, in `probes`). */
  toolCalls: number;
  /** Look-ups the engine made to decide (routing, source ranking, name checks), through the same executor. */
  probes?: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** A passage the run saw, with the step that found it. */
export interface EvidenceItem extends Passage {
  step: number;
  /** The tool call that found it. */
  callId: string;
}

/** A tool call the plan made in a step, as the step's `tool-call-end` event reported it. */
export interface StepToolCall {
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  status: ToolStatus;
  /** Passages the call returned. */
  passages: number;
  rows?: number;
  cached?: boolean;
  ms: number;
}

/** One step of the loop: what it planned, the calls it made, and how the evidence was graded after them. */
export interface AnswerStep {
  /** 1 for the first step (the answer phase and routing, step 0, are not steps). */
  step: number;
  thought?: string;
  subQuestions?: string[];
  toolCalls: StepToolCall[];
  /** Absent when the step ended before grading (a budget or a stop). */
  grade?: { sufficient: boolean; threshold: number };
}

export interface Answer {
  status: "answered" | "partial" | "refused";
  text: string;
  citations: Citation[];
  stopReason: StopReason;
  /** Why it refused or what is missing, when status is not `answered`. */
  reason?: string;
  /** 0..1: how well the cited evidence covers the question's constraints, when the engine calibrates refusal. */
  confidence?: number;
  /** Claims whose citations failed the check. */
  unsupported?: string[];
  evidence: EvidenceItem[];
  /** The steps the loop ran, in order (as the AI SDK's `steps`); see `stepCount` for just the number. */
  steps: AnswerStep[];
  stepCount: number;
  usage: Usage;
  latencyMs: number;
  runId: string;
  /** Alias of runId, as the architecture names it. */
  traceId: string;
  /** `offline` or `provider:model` of the answerer. */
  model: string;
}
