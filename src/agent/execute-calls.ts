import type { StopReason } from "../spec/answer.js";
import type { CallRecord } from "../spec/engine.js";
import { passageKey } from "../spec/passage.js";
import type { ToolResult } from "../spec/tool-result.js";
import type { ToolCallRequest, TraceEvent } from "../spec/trace.js";
import { readsOf } from "../tools/define-tool.js";
import { bestScore } from "../tools/passage-result.js";
import type { TraceEventInput } from "../trace/recorder.js";
import type { RunContext } from "./run-context.js";

export interface ExecutedCalls {
  /** In plan order, for the calls that ran. */
  records: CallRecord[];
  results: ToolResult[];
  /** Set when a budget or the signal kept some calls from starting. */
  interrupted?: StopReason;
}

/** The tool-call-end event of a call (a planned call or a probe): what it found, in summary. */
export function toolCallEnd(step: number, call: ToolCallRequest, result: ToolResult, ms: number): TraceEventInput {
  const passages = result.passages ?? [];
  return {
    type: "tool-call-end",
    step,
    callId: call.callId,
    tool: call.tool,
    status: result.status,
    passages: passages.map(({ id, docId, source, score }) => ({ id, docId, source, score })),
    ...(result.rows ? { rows: result.rows.length } : {}),
    ...(passages.length > 0 ? { best: bestScore(passages) } : {}),
    ...(result.cached ? { cached: true } : {}),
    ...(result.hint ? { hint: result.hint } : {}),
    ...(call.purpose ? { purpose: call.purpose } : {}),
    ms,
  };
}

/**
 * Runs the calls of one step: parallel-safe calls together, the others one by one after them. Yields
 * tool-call-start/end events as they happen; adds the passages to the evidence in plan order, de-duplicated.
 */
export async function* executeCalls(
  run: RunContext,
  calls: readonly ToolCallRequest[],
): AsyncGenerator<TraceEvent, ExecutedCalls> {
  const step = run.state.step;
  const done = new Map<string, ToolResult>();
  let interrupted: StopReason | undefined;

  const start = (call: ToolCallRequest): boolean => {
    interrupted ??= run.budgetStop("tool");
    if (interrupted) return false;
    run.usage.toolCalls++;
    run.emit({ type: "tool-call-start", step, call, reads: readsOf(run.toolset.get(call.tool)) });
    return true;
  };
  const end = (call: ToolCallRequest, result: ToolResult, ms: number) => {
    done.set(call.callId, result);
    run.emit(toolCallEnd(step, call, result, ms));
  };

  const parallel = calls.filter((c) => run.toolset.get(c.tool)?.parallelSafe !== false);
  const sequential = calls.filter((c) => run.toolset.get(c.tool)?.parallelSafe === false);

  const pending = new Map<string, Promise<{ call: ToolCallRequest; result: ToolResult; ms: number }>>();
  for (const call of parallel) {
    if (!start(call)) break;
    pending.set(
      call.callId,
      run.callTool(call).then((r) => ({ call, ...r })),
    );
  }
  yield* run.drain();
  while (pending.size > 0) {
    const finished = await Promise.race(pending.values());
    pending.delete(finished.call.callId);
    end(finished.call, finished.result, finished.ms);
    yield* run.drain();
  }
  for (const call of sequential) {
    if (!start(call)) break;
    yield* run.drain();
    const { result, ms } = await run.callTool(call);
    end(call, result, ms);
    yield* run.drain();
  }

  const records: CallRecord[] = [];
  const results: ToolResult[] = [];
  for (const call of calls) {
    const result = done.get(call.callId);
    if (result === undefined) continue;
    const passages = result.passages ?? [];
    // Two sources may hold the same passage id: evidence is one passage per source and id.
    const known = new Set(run.state.evidence.map(passageKey));
    for (const p of passages) {
      if (known.has(passageKey(p))) continue;
      known.add(passageKey(p));
      run.state.evidence.push({ ...p, step, callId: call.callId });
    }
    const record: CallRecord = {
      call,
      step,
      status: result.status,
      passageKeys: passages.map(passageKey),
      ...(result.rows ? { rows: result.rows } : {}),
      ...(result.hint ? { hint: result.hint } : {}),
      ...(passages.length > 0 ? { best: bestScore(passages) } : {}),
    };
    run.state.calls.push(record);
    records.push(record);
    results.push(result);
  }
  return { records, results, interrupted };
}
