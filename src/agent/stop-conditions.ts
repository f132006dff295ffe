import type { StopReason } from "../spec/answer.js";
import type { GradeResult } from "../spec/engine.js";

/** What the stop conditions look at after a step (or before starting work). */
export interface LoopSnapshot {
  /** Steps completed. */
  step: number;
  toolCalls: number;
  tokens: number;
  costUsd: number;
  elapsedMs: number;
  /** What the work still to come is expected to cost (the next call plus the answer), from calls seen so far. */
  reserve: { tokens: number; costUsd: number; ms: number };
  lastGrade?: GradeResult;
  /** New calls in the latest plan (repeats of earlier calls are not new). */
  newCalls: number;
  /** The latest plan said there is nothing more to search. */
  planDone: boolean;
}

/** A small predicate: the reason to stop now, or undefined to go on. */
export type StopCondition = (snapshot: LoopSnapshot) => StopReason | undefined;

export const isStepCount =
  (maxSteps: number): StopCondition =>
  (s) =>
    s.step >= maxSteps ? "max_steps" : undefined;

export const toolCallCount =
  (maxToolCalls: number): StopCondition =>
  (s) =>
    s.toolCalls >= maxToolCalls ? "max_tool_calls" : undefined;

/** Stops while the tokens used plus the expected cost of what is left would pass the budget. */
export const tokenBudget =
  (maxTokens: number): StopCondition =>
  (s) =>
    s.tokens + s.reserve.tokens > maxTokens ? "token_budget" : undefined;

export const costBudget =
  (maxCostUsd: number): StopCondition =>
  (s) =>
    s.costUsd + s.reserve.costUsd > maxCostUsd ? "cost_budget" : undefined;

export const timeout =
  (timeoutMs: number): StopCondition =>
  (s) =>
    s.elapsedMs + s.reserve.ms >= timeoutMs ? "timeout" : undefined;

/** Stops when the cost so far plus what is left to spend would pass what is left of an allowance (none at 0). */
export const spendCap =
  (remainingUsd: number): StopCondition =>
  (s) =>
    remainingUsd <= 0 || s.costUsd + s.reserve.costUsd > remainingUsd ? "spend_cap" : undefined;

export const evidenceSufficient = (): StopCondition => (s) =>
  s.lastGrade?.sufficient ? "evidence_sufficient" : undefined;

/** The first condition that says stop, in the order given. */
export function firstStop(conditions: readonly StopCondition[], snapshot: LoopSnapshot): StopReason | undefined {
  for (const condition of conditions) {
    const reason = condition(snapshot);
    if (reason !== undefined) return reason;
  }
  return undefined;
}
