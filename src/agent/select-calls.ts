import type { CallRecord, PlanResult } from "../spec/engine.js";
import type { ToolCallRequest } from "../spec/trace.js";
import type { Toolset } from "../tools/toolset.js";
import { stableJson } from "../util/stable-json.js";

export interface SelectedCalls {
  /** New calls to run, with ids, within the tool-call budget. */
  accepted: ToolCallRequest[];
  /** Planned calls that repeat an earlier call (same tool, same normalised arguments). */
  repeated: number;
  /** Planned calls left out because they would pass the tool-call budget. */
  overBudget: number;
}

/** Drops repeats of earlier calls and truncates the plan to the calls the budget still allows. */
export function selectCalls(options: {
  planned: PlanResult["calls"];
  previous: readonly CallRecord[];
  toolset: Toolset;
  remaining: number;
  newId: () => string;
}): SelectedCalls {
  const seen = new Set(options.previous.map((r) => callKey(r.call, options.toolset)));
  const accepted: ToolCallRequest[] = [];
  let repeated = 0;
  let overBudget = 0;
  for (const planned of options.planned) {
    const key = callKey(planned, options.toolset);
    if (seen.has(key)) {
      repeated++;
      continue;
    }
    seen.add(key);
    if (accepted.length >= options.remaining) {
      overBudget++;
      continue;
    }
    accepted.push({ ...planned, args: planned.args ?? {}, callId: options.newId() });
  }
  return { accepted, repeated, overBudget };
}

/** Tool name plus arguments with defaults applied, keys sorted, strings trimmed, lower-cased, spaces collapsed. */
export function callKey(call: Pick<ToolCallRequest, "tool" | "args">, toolset?: Toolset): string {
  const parsed = toolset?.get(call.tool)?.inputSchema.safeParse(call.args ?? {});
  const args = parsed?.success ? parsed.data : call.args;
  return `${call.tool}(${stableJson(args ?? {}, (v) => v.trim().toLowerCase().replace(/\s+/g, " "))})`;
}
