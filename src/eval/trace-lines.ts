import type { TraceEvent } from "../spec/trace.js";

function short(value: unknown, max = 160): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function summary(e: TraceEvent): string {
  switch (e.type) {
    case "run-start":
      return `${e.mode} ${e.model}: ${short(e.standaloneQuestion)}`;
    case "route":
      return `${e.route}: ${short(e.reason)}`;
    case "plan":
      return `${e.calls.length} call(s); ${e.subQuestions.length} sub-question(s): ${short(e.subQuestions.join(" | "))}`;
    case "tool-call-start":
      return `${e.call.tool} ${short(e.call.args)}`;
    case "tool-call-end": {
      const docs = e.passages.slice(0, 5).map((p) => `${p.docId} (${p.score.toFixed(2)})`);
      const more = e.passages.length > 5 ? ` +${e.passages.length - 5}` : "";
      const rows = e.rows !== undefined ? ` rows=${e.rows}` : "";
      return `${e.tool} ${e.status}${rows} ${e.ms}ms${e.cached ? " cached" : ""} ${docs.join(", ")}${more}${e.hint ? ` hint: ${short(e.hint, 80)}` : ""}`;
    }
    case "grade":
      return `${e.sufficient ? "sufficient" : "insufficient"} (threshold ${e.threshold.toFixed(2)}): ${e.subQuestions
        .map(
          (s) =>
            `#${s.index} ${s.coverage.toFixed(2)}${s.sufficient ? "" : ` missing ${short(s.missing.join(", "), 60)}`}`,
        )
        .join("; ")}`;
    case "checkpoint":
      return `${e.checkpoint}${e.decision ? ` -> ${e.decision}` : ""}`;
    case "llm-call":
      return `${e.role} ${e.model} in=${e.inputTokens} out=${e.outputTokens} ${e.ms}ms`;
    case "answer-draft-delta":
    case "answer-delta":
      return short(e.text, 60);
    case "answer-end":
      return `${e.answer.status} (${e.answer.stopReason})`;
    case "run-end":
      return `${e.stopReason} ${e.ms}ms tools=${e.usage.toolCalls} llm=${e.usage.llmCalls}`;
    case "error":
      return `${e.name}: ${short(e.message)}`;
  }
}

/** One short line per trace event (answer deltas folded into a count), for reading a run at a glance. */
export function traceLines(events: readonly TraceEvent[]): string[] {
  const lines: string[] = [];
  let deltas = 0;
  for (const e of events) {
    if (e.type === "answer-draft-delta") continue;
    if (e.type === "answer-delta") {
      deltas++;
      continue;
    }
    lines.push(`s${e.step} +${Math.round(e.t)}ms ${e.type} ${summary(e)}`);
  }
  if (deltas > 0) lines.push(`(${deltas} answer-delta events)`);
  return lines;
}
