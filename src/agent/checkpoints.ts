import type { ToolResult } from "../spec/tool-result.js";
import type { CheckpointDecision, CheckpointKind, TraceEvent } from "../spec/trace.js";
import { describeError } from "./answer-phase.js";
import type { CheckpointSettings } from "./options.js";
import type { RunContext } from "./run-context.js";

const ACTIONS = new Set(["continue", "answer_now", "rephrase", "stop"]);

/** The checkpoints a finished step calls for, in the order they are asked. */
export function dueCheckpoints(options: {
  settings: CheckpointSettings;
  results: readonly ToolResult[];
  toolCallsBefore: number;
  toolCallsAfter: number;
}): CheckpointKind[] {
  const { settings, results } = options;
  const due: CheckpointKind[] = [];
  if (settings.onNoResults && results.some((r) => r.status === "no_results")) due.push("no_results");
  if (settings.onLowConfidence && results.some((r) => r.status === "low_confidence")) due.push("low_confidence");
  const every = settings.afterSearches;
  if (every !== undefined && every > 0) {
    if (Math.floor(options.toolCallsAfter / every) > Math.floor(options.toolCallsBefore / every))
      due.push("after_searches");
  }
  return due;
}

/**
 * Asks the checkpoint handler (default: continue) and records its decision. A handler that throws or
 * answers nonsense counts as continue, with an error event; the run's signal does not wait for a person.
 */
export async function* checkpoint(
  run: RunContext,
  kind: CheckpointKind,
): AsyncGenerator<TraceEvent, CheckpointDecision> {
  const { state } = run;
  let decision: CheckpointDecision = { action: "continue" };
  const handler = run.options.onCheckpoint;
  if (handler) {
    try {
      const asked = handler({
        kind,
        runId: run.runId,
        step: state.step,
        question: state.standaloneQuestion,
        toolCalls: run.usage.toolCalls,
        evidence: state.evidence,
        calls: state.calls,
        lastGrade: state.lastGrade,
      });
      const given = await Promise.race([asked, whenAborted(run.signal)]);
      if (given !== undefined) {
        if (!ACTIONS.has(given?.action) || (given.action === "rephrase" && typeof given.query !== "string")) {
          throw new TypeError(`not a checkpoint decision: ${JSON.stringify(given)}`);
        }
        decision = given;
      }
    } catch (error) {
      run.emit({
        type: "error",
        step: state.step,
        ...describeError(error, `the ${kind} checkpoint failed; continuing`),
      });
    }
  }
  run.emit({ type: "checkpoint", step: state.step, checkpoint: kind, decision: decision.action });
  yield* run.drain();
  return decision;
}

function whenAborted(signal: AbortSignal): Promise<undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(undefined), { once: true }));
}
