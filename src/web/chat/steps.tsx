import type { FerretPart, StepData, ToolOutput } from "./types.js";

const quoted = (value: unknown) => (typeof value === "string" ? `'${value}'` : "");

/** A tool call as a person reads it: "searching handbook for 'refund timeout'". */
export function describeCall(tool: string, input: unknown): string {
  const args = (input ?? {}) as Record<string, unknown>;
  switch (tool) {
    case "search":
      return `searching ${String(args.corpus ?? "all sources")} for ${quoted(args.query)}`;
    case "search_by_source":
      return `searching ${String(args.docId ?? args.source ?? "a document")} for ${quoted(args.query)}`;
    case "list_sources":
      return "listing the sources";
    case "run_sql":
      return `running SQL ${quoted(args.sql)}`;
    case "search_entity":
      return `looking up ${quoted(args.name ?? args.entity ?? args.query)}`;
    case "traverse_graph":
      return `following links from ${quoted(args.entity ?? args.start ?? args.name)}`;
    case "find_path":
      return `finding a path from ${quoted(args.from)} to ${quoted(args.to)}`;
    default:
      return `${tool} ${JSON.stringify(args)}`;
  }
}

export function describeOutput(output: ToolOutput | undefined): string {
  if (!output) return "…";
  const parts: string[] = [];
  if (output.status !== "ok") parts.push(output.status.replace(/_/g, " "));
  if (output.rows !== undefined) parts.push(`${output.rows} rows`);
  else parts.push(`${output.passages.length} passage${output.passages.length === 1 ? "" : "s"}`);
  if (output.best !== undefined) parts.push(`best ${output.best.toFixed(2)}`);
  if (output.cached) parts.push("cached");
  parts.push(`${output.ms} ms`);
  return parts.join(" · ");
}

function describeStep(step: StepData): string {
  switch (step.type) {
    case "route":
      return `route: ${step.route} (${step.reason})`;
    case "plan":
      return `plan: ${step.thought}${step.subQuestions.length > 1 ? ` — ${step.subQuestions.join(" / ")}` : ""}`;
    case "grade": {
      const missing = [...new Set(step.subQuestions.flatMap((q) => q.missing))];
      return `grade: evidence ${step.sufficient ? "sufficient" : "not yet sufficient"}${
        missing.length > 0 ? ` · missing ${missing.join(", ")}` : ""
      }`;
    }
    case "llm-call":
      return `model ${step.model} (${step.role}) · ${step.inputTokens + step.outputTokens} tokens · $${step.costUsd.toFixed(4)} · ${step.ms} ms`;
    case "error":
      return `${step.name}: ${step.message}`;
  }
}

/** The run's steps as they stream in, one line each, in the order they happened. */
export function Steps({ parts, live }: { parts: FerretPart[]; live: boolean }) {
  const lines: { key: string; text: string; detail?: string; kind: string; pending?: boolean }[] = [];
  parts.forEach((part, i) => {
    if (part.type === "data-step") {
      lines.push({ key: `s${i}`, text: describeStep(part.data), kind: part.data.type });
    } else if (part.type === "dynamic-tool") {
      const done = part.state === "output-available";
      lines.push({
        key: part.toolCallId,
        text: describeCall(part.toolName, part.input),
        detail: done ? describeOutput(part.output as ToolOutput) : part.state === "output-error" ? "failed" : "…",
        kind: "tool",
        pending: !done && part.state !== "output-error",
      });
    }
  });
  if (lines.length === 0) return live ? <p className="steps-empty">Thinking…</p> : null;
  return (
    <details className="steps" open={live}>
      <summary>
        {live ? "Working" : "Steps"} · {lines.filter((l) => l.kind === "tool").length} tool call
        {lines.filter((l) => l.kind === "tool").length === 1 ? "" : "s"}
      </summary>
      <ol aria-live="polite" data-testid="steps">
        {lines.map((l) => (
          <li key={l.key} className={`step step-${l.kind}${l.pending ? " pending" : ""}`}>
            {l.text}
            {l.detail && <span className="step-detail"> · {l.detail}</span>}
          </li>
        ))}
      </ol>
    </details>
  );
}
