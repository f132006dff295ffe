import type { UIMessage } from "ai";
import type { SubQuestionGrade } from "../../spec/trace.js";
import type { Usage } from "../api.js";

/** What `/v1/ask/stream` sends as `data-` parts (see src/server/wire/ui-message-stream.ts). */
export type { SubQuestionGrade } from "../../spec/trace.js";

export type StepData =
  | { type: "route"; step: number; t: number; route: string; reason: string }
  | { type: "plan"; step: number; t: number; thought: string; subQuestions: string[] }
  | { type: "grade"; step: number; t: number; sufficient: boolean; threshold: number; subQuestions: SubQuestionGrade[] }
  | {
      type: "llm-call";
      step: number;
      t: number;
      role: string;
      model: string;
      inputTokens: number;
      outputTokens: number;
      costUsd: number;
      ms: number;
    }
  | { type: "error"; step: number; t: number; name: string; message: string };

export interface CitationSpan {
  n: number;
  passageId: string;
  docId: string;
  source: string;
  title?: string;
  quote: string;
  locator?: string;
  url?: string;
  passageText: string;
  passage: { start: number; end: number } | null;
  document: { start: number; end: number } | null;
}

export interface AnswerInfo {
  runId: string;
  status: "answered" | "partial" | "refused";
  stopReason: string;
  reason?: string;
  unsupported?: string[];
  stepCount: number;
  usage: Usage;
  latencyMs: number;
  model: string;
}

export interface RunInfo {
  runId: string;
  standaloneQuestion: string;
  mode: string;
  model: string;
}

export type CheckpointData =
  | {
      state: "waiting";
      runId: string;
      checkpoint: string;
      step: number;
      toolCalls: number;
      evidence: number;
      timeoutMs: number;
      actions: string[];
    }
  | { state: "decided"; checkpoint: string; decision: string; step: number };

export interface ToolOutput {
  status: string;
  passages: { id: string; docId: string; source: string; score: number }[];
  rows?: number;
  best?: number;
  cached?: boolean;
  hint?: string;
  ms: number;
}

export type FerretMessage = UIMessage<
  unknown,
  { step: StepData; citation: CitationSpan; answer: AnswerInfo; run: RunInfo; checkpoint: CheckpointData }
>;
export type FerretPart = FerretMessage["parts"][number];
