import type { AnswerStep, StepToolCall } from "../spec/answer.js";
import type { TraceEvent } from "../spec/trace.js";

/**
 * The steps of a run (1..`count`) from its trace events: each step's plan, the calls the plan made (probes
 * are the engine's own look-ups, counted apart in `usage.probes`, and left out) and the grade that closed it.
 */
export function answerSteps(events: readonly TraceEvent[], count: number): AnswerStep[] {
  const steps: AnswerStep[] = Array.from({ length: count }, (_, i) => ({ step: i + 1, toolCalls: [] }));
  const args = new Map<string, Record<string, unknown>>();
  for (const e of events) {
    const step = e.step >= 1 && e.step <= count ? steps[e.step - 1] : undefined;
    if (!step) continue;
    switch (e.type) {
      case "plan":
        step.thought = e.thought;
        step.subQuestions = e.subQuestions;
        break;
      case "tool-call-start":
        args.set(e.call.callId, e.call.args);
        break;
      case "tool-call-end": {
        if (e.purpose === "probe") break;
        const call: StepToolCall = {
          callId: e.callId,
          tool: e.tool,
          args: args.get(e.callId) ?? {},
          status: e.status,
          passages: e.passages.length,
          ms: e.ms,
        };
        if (e.rows !== undefined) call.rows = e.rows;
        if (e.cached) call.cached = true;
        step.toolCalls.push(call);
        break;
      }
      case "grade":
        step.grade = { sufficient: e.sufficient, threshold: e.threshold };
        break;
    }
  }
  return steps;
}
