import type { StopReason } from "../spec/answer.js";
import type { AgentState } from "../spec/engine.js";
import { queryTerms } from "../text/tokenize.js";
import { describeToolCall } from "../tools/define-tool.js";
import type { Toolset } from "../tools/toolset.js";
import { normalise } from "./citations.js";

const WHY: Partial<Record<StopReason, string>> = {
  max_steps: "the step limit was reached",
  max_tool_calls: "the tool-call limit was reached",
  token_budget: "the token budget was used up",
  cost_budget: "the cost budget was used up",
  timeout: "the time budget ran out",
  no_progress: "the search stopped making progress",
  aborted: "the run was stopped",
  fallback: "the planner failed",
  spend_cap: "the daily spend cap was reached",
};

/**
 * What was searched, as `api_docs for 'refund timeout' (3 passages)`: each call in its tool's own words
 * (`Tool.describeCall`), else by its name and arguments.
 */
export function describeSearches(calls: AgentState["calls"], toolset?: Toolset): string[] {
  return calls.map(({ call, status, passageKeys }) => {
    const what = describeToolCall(toolset?.get(call.tool), call.tool, call.args);
    const found =
      status === "ok" || status === "low_confidence" ? `${passageKeys.length} passages` : status.replace("_", " ");
    return `${what} (${found})`;
  });
}

/** Missing terms: from the last grade, else the question's terms that no evidence contains. */
export function missingTerms(state: Pick<AgentState, "lastGrade" | "standaloneQuestion" | "evidence">): string[] {
  const fromGrade = state.lastGrade?.subQuestions.flatMap((g) => g.missing) ?? [];
  if (state.lastGrade) return [...new Set(fromGrade)];
  const text = normalise(state.evidence.map((e) => e.text).join(" "));
  return queryTerms(state.standaloneQuestion).filter((t) => !text.includes(t));
}

/** A refusal that says what was searched and what was missing; no sentinel strings, the status carries it. */
export function refusal(options: {
  state: Pick<AgentState, "calls" | "lastGrade" | "standaloneQuestion" | "evidence">;
  stopReason: StopReason;
  /** The answerer's own reason, or an error message. */
  detail?: string;
  /** The run's tools, which say how each call is described. */
  toolset?: Toolset;
}): { text: string; reason: string } {
  const searched = describeSearches(options.state.calls, options.toolset);
  const missing = missingTerms(options.state);
  const why = WHY[options.stopReason];
  const reason = [
    why ? `Stopped because ${why}.` : "The evidence found was not enough to answer.",
    options.detail ? options.detail.trim() : "",
  ]
    .filter(Boolean)
    .join(" ");
  const parts = [
    "I could not answer this from the sources.",
    reason,
    searched.length > 0 ? `Searched: ${searched.join("; ")}.` : "Nothing was searched.",
    missing.length > 0 ? `Missing: ${missing.join(", ")}.` : "",
  ];
  return { text: parts.filter(Boolean).join(" "), reason };
}
