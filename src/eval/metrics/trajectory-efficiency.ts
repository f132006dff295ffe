import type { Answer } from "../../spec/answer.js";
import type { TraceEvent } from "../../spec/trace.js";

/** Retrieval rounds: distinct steps holding at least one retrieving tool call (from the answer's evidence without events). */
export function retrievalRounds(answer: Pick<Answer, "evidence"> | undefined, events: readonly TraceEvent[]): number {
  const steps = new Set<number>();
  for (const event of events) {
    // A call that reads nothing of the knowledge base (its tool says `reads: "none"`) is no retrieval round.
    if (event.type === "tool-call-start" && event.call.purpose !== "probe" && event.reads !== "none")
      steps.add(event.step);
  }
  if (steps.size === 0) for (const e of answer?.evidence ?? []) steps.add(e.step);
  return steps.size;
}

/**
 * `min_hops / rounds`, capped at 1. A question needing no retrieval scores 1 when none ran and 0 when some
 * did; a question needing retrieval that got none is `null` (a correctness failure, not an efficiency one).
 */
export function trajectoryEfficiency(minHops: number, rounds: number): number | null {
  if (rounds === 0) return minHops === 0 ? 1 : null;
  return Math.min(1, minHops / rounds);
}
