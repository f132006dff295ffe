import type { Answer, Usage } from "../spec/answer.js";
import type { RunRecord } from "../spec/store.js";
import type { ToolCallRequest, TraceEvent } from "../spec/trace.js";

type Of<K extends TraceEvent["type"]> = Extract<TraceEvent, { type: K }>;

/** What a call does, in words: `searching api_docs for 'refund timeout'`. */
export function describeCall(call: Pick<ToolCallRequest, "tool" | "args" | "purpose">): string {
  const said = describeArgs(call);
  return call.purpose === "probe" ? `probe: ${said}` : said;
}

function describeArgs(call: Pick<ToolCallRequest, "tool" | "args">): string {
  const { tool, args } = call;
  const query = typeof args.query === "string" ? `'${args.query}'` : undefined;
  if (tool === "search" && query)
    return `searching ${typeof args.corpus === "string" ? args.corpus : "all sources"} for ${query}`;
  if (tool === "search_by_source" && query) return `searching ${String(args.docId)} for ${query}`;
  if (tool === "list_sources") return "listing sources";
  return `${tool} ${JSON.stringify(args)}`;
}

/** What a call found: `5 passages, best 0.82`. */
export function describeOutcome(e: Of<"tool-call-end">): string {
  let found: string;
  if (e.status === "ok" || e.status === "low_confidence") {
    const parts = [e.rows !== undefined ? `${e.rows} rows` : `${e.passages.length} passages`];
    if (e.best !== undefined) parts.push(`best ${e.best.toFixed(2)}`);
    if (e.status === "low_confidence") parts.push("low confidence");
    found = parts.join(", ");
  } else if (e.status === "no_results") found = "no results";
  else found = `${e.status.replace("_", " ")}${e.hint ? `: ${e.hint}` : ""}`;
  return `${found}${e.cached ? " (cached)" : ""}`;
}

export function formatUsage(usage: Usage): string {
  const tokens = usage.inputTokens + usage.outputTokens;
  return `${usage.llmCalls} LLM calls, ${usage.toolCalls} tool calls, ${tokens} tokens (${usage.inputTokens} in / ${usage.outputTokens} out), $${usage.costUsd.toFixed(4)}`;
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/** One line for live rendering. Give the matching start call to a tool-call-end to name what was searched. */
export function formatEvent(e: TraceEvent, options: { call?: ToolCallRequest } = {}): string {
  switch (e.type) {
    case "run-start":
      return `run ${e.runId}: ${JSON.stringify(e.question)}${e.standaloneQuestion !== e.question ? ` (as ${JSON.stringify(e.standaloneQuestion)})` : ""} [mode ${e.mode}, model ${e.model}]`;
    case "route":
      return `route: ${e.route} (${e.reason})`;
    case "plan":
      return `step ${e.step}: ${e.thought}${e.calls.length > 0 ? ` (${e.calls.length} calls)` : " (no calls)"}`;
    case "tool-call-start":
      return `${describeCall(e.call)} …`;
    case "tool-call-end":
      return `${options.call ? describeCall(options.call) : e.tool} … ${describeOutcome(e)} (${formatMs(e.ms)})`;
    case "grade": {
      const coverage = e.subQuestions.map((g) => g.coverage.toFixed(2)).join(", ");
      const missing = [...new Set(e.subQuestions.flatMap((g) => g.missing))];
      return `grade: ${e.sufficient ? "sufficient" : "not sufficient"} (threshold ${e.threshold.toFixed(2)}${coverage ? `, coverage ${coverage}` : ""})${missing.length > 0 ? `; missing: ${missing.join(", ")}` : ""}`;
    }
    case "checkpoint":
      return `checkpoint ${e.checkpoint}${e.decision ? ` -> ${e.decision}` : ""}`;
    case "llm-call":
      return `${e.role} ${e.model}: ${e.inputTokens} in / ${e.outputTokens} out tokens, $${e.costUsd.toFixed(4)}, ${formatMs(e.ms)}`;
    case "answer-draft-delta":
    case "answer-delta":
      return e.text;
    case "answer-end":
      return `answer: ${e.answer.status}, ${e.answer.citations.length} citations`;
    case "run-end":
      return `done: ${e.stopReason} in ${formatMs(e.ms)}; ${formatUsage(e.usage)}`;
    case "error":
      return `error (${e.name}): ${e.message}${e.cause ? ` [cause: ${e.cause}]` : ""}`;
  }
}

/** A formatter that remembers calls, so a tool-call-end line says what was searched. */
export function createEventFormatter(): (e: TraceEvent) => string {
  const calls = new Map<string, ToolCallRequest>();
  return (e) => {
    if (e.type === "tool-call-start") calls.set(e.call.callId, e.call);
    return formatEvent(e, e.type === "tool-call-end" ? { call: calls.get(e.callId) } : {});
  };
}

/** A stored run, human readable (for `ferret trace RUN_ID`): every event with its time, then the summary. */
export function formatTrace(record: RunRecord): string {
  const events = record.events as TraceEvent[];
  const format = createEventFormatter();
  const lines = [
    `run ${record.runId}  ${record.startedAt}  ${record.tenant}/${record.user}`,
    `question: ${record.question}`,
    ...(record.redacted
      ? [
          `redacted: ${record.redacted.passages} passages from sources or documents you can no longer read, and what the run drew from them`,
        ]
      : []),
    "",
  ];
  for (const e of events) {
    if (e.type === "answer-delta" || e.type === "answer-draft-delta") continue;
    lines.push(`${`+${formatMs(e.t)}`.padStart(9)}  ${`[${e.step}]`.padEnd(4)} ${format(e)}`);
  }
  const end = events.findLast((e): e is Of<"run-end"> => e.type === "run-end");
  const answer =
    (record.answer as Answer | undefined) ??
    events.findLast((e): e is Of<"answer-end"> => e.type === "answer-end")?.answer;
  lines.push("");
  if (end) {
    lines.push(`stop reason: ${end.stopReason}`, `time: ${formatMs(end.ms)}`, `usage: ${formatUsage(end.usage)}`);
  } else {
    lines.push("stop reason: (the run did not finish)");
  }
  if (answer) {
    lines.push(`answer (${answer.status}, model ${answer.model}): ${answer.text}`);
    for (const c of answer.citations) lines.push(`  [${c.n}] ${c.docId} (${c.passageId}): "${c.quote}"`);
    for (const claim of answer.unsupported ?? []) lines.push(`  unsupported: ${claim}`);
  }
  return lines.join("\n");
}
