import type { TraceEvent } from "../spec/trace.js";
import type { LoopEnd } from "./answer-phase.js";
import { executeCalls } from "./execute-calls.js";
import type { RunContext } from "./run-context.js";

/** One `search` of the standalone question (or a person's rephrasing) over every readable source. */
export async function* ragPass(
  run: RunContext,
  thought = "single retrieval pass",
): AsyncGenerator<TraceEvent, LoopEnd> {
  const { state } = run;
  if (run.usage.toolCalls >= run.settings.limits.maxToolCalls) return { reason: "max_tool_calls" };
  state.step = run.stepsRun + 1;
  run.stepsRun++;
  const query = state.rephrase ?? state.standaloneQuestion;
  state.rephrase = undefined;
  const call = { callId: run.newId(), tool: "search", args: { query, k: run.settings.presetSettings.search.k } };
  run.emit({ type: "plan", step: state.step, thought, subQuestions: [query], calls: [call] });
  yield* run.drain();
  const executed = yield* executeCalls(run, [call]);
  if (executed.interrupted) return { reason: executed.interrupted, refuse: executed.interrupted === "aborted" };
  return { reason: "answered" };
}
