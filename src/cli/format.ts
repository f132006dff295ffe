import type { Answer } from "../spec/answer.js";
import type { Passage } from "../spec/passage.js";
import type { SourceInfo } from "../spec/source.js";

const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export function formatPassages(passages: Passage[]): string {
  if (passages.length === 0) return "no passages found";
  return passages
    .map((p, i) => {
      const where = [p.source, p.docId, p.section].filter(Boolean).join(" · ");
      return `${i + 1}. [${p.score.toFixed(2)}] ${p.title ?? p.docId}\n   ${where}${p.updatedAt ? ` · updated ${p.updatedAt}` : ""}\n   ${oneLine(p.text, 220)}`;
    })
    .join("\n");
}

export function formatSources(sources: SourceInfo[]): string {
  if (sources.length === 0) return "no sources (run `ferret ingest PATH` first)";
  const rows = sources.map((s) => [
    s.name,
    s.tenant,
    s.kind,
    s.acl.length ? s.acl.join(",") : "everyone",
    String(s.documents),
    String(s.chunks),
    s.lastIngestAt ? s.lastIngestAt.slice(0, 16).replace("T", " ") : "-",
    oneLine(s.description, 50),
  ]);
  const header = ["source", "tenant", "kind", "acl", "docs", "chunks", "last ingest (UTC)", "description"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

/** Why a run refused, in a few words (the full reasoning is in `--json` and the trace). */
const WHY: Partial<Record<Answer["stopReason"], string>> = {
  max_steps: "the step limit was reached",
  max_tool_calls: "the tool-call limit was reached",
  token_budget: "the token budget was used up",
  cost_budget: "the cost budget was used up",
  timeout: "the time budget ran out",
  no_progress: "the search stopped making progress",
  aborted: "the run was stopped",
  spend_cap: "the daily spend cap was reached",
  insufficient_evidence: "the evidence found was not enough",
};

/**
 * A refusal for a person: one sentence and where the details are. The library's refusal text (what was
 * searched, what was missing, the rewritten queries) stays in `--json`, the trace and `answer.text`.
 */
export function refusalText(answer: Answer): string {
  const why = WHY[answer.stopReason] ?? "the evidence found was not enough";
  const searched = answer.usage.toolCalls === 1 ? "1 search" : `${answer.usage.toolCalls} searches`;
  return `I could not answer this from the sources (${why}; ${searched}).\nDetails: ferret trace ${answer.runId}`;
}

export function formatAnswer(answer: Answer): string {
  const concise = answer.status === "refused" && answer.stopReason !== "no_retrieval_needed";
  const lines = [concise ? refusalText(answer) : answer.text];
  if (answer.citations.length > 0) {
    lines.push("", "Sources:");
    for (const c of answer.citations) {
      // A web page's citation is a link that opens the page at the quoted sentence.
      // Other documents name the place to look: page, sheet range, slide, lines or message.
      const where = c.url ?? (c.locator ? `${c.docId} (${c.locator})` : c.docId);
      lines.push(`  [${c.n}] ${where}: “${oneLine(c.quote, 120)}”`);
    }
  }
  if (answer.unsupported?.length)
    lines.push("", `Unsupported (citation failed the check): ${answer.unsupported.join(" | ")}`);
  lines.push(
    "",
    `— ${answer.status} · stop: ${answer.stopReason} · ${answer.stepCount} step(s) · ${answer.usage.toolCalls} tool call(s) · ` +
      `${answer.usage.llmCalls} LLM call(s) · ${answer.latencyMs} ms · model ${answer.model} · run ${answer.runId}`,
  );
  return lines.join("\n");
}

/** The `ask --json` shape. */
export function answerJson(answer: Answer) {
  return {
    status: answer.status,
    text: answer.text,
    citations: answer.citations,
    stopReason: answer.stopReason,
    reason: answer.reason,
    unsupported: answer.unsupported,
    evidence: answer.evidence,
    stepCount: answer.stepCount,
    steps: answer.steps,
    usage: answer.usage,
    latencyMs: answer.latencyMs,
    runId: answer.runId,
    model: answer.model,
  };
}
