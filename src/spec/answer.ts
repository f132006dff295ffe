import type { Passage } from "./passage.js";

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
  steps: number;
  usage: Usage;
  latencyMs: number;
  runId: string;
  /** Alias of runId, as the architecture names it. */
  traceId: string;
  /** `offline` or `provider:model` of the answerer. */
  model: string;
}
