import type { TraceEvent } from "../../spec/trace.js";

/** Mean coverage of the sub-questions in the run's last `grade` event; `null` when it graded nothing. */
export function subQuestionCoverage(events: readonly TraceEvent[]): number | null {
  let last: Extract<TraceEvent, { type: "grade" }> | undefined;
  for (const event of events) if (event.type === "grade") last = event;
  if (last === undefined || last.subQuestions.length === 0) return null;
  const total = last.subQuestions.reduce((sum, sq) => sum + Math.min(1, Math.max(0, sq.coverage)), 0);
  return total / last.subQuestions.length;
}
