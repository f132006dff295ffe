import { METRICS } from "./aggregate.js";
import { FAILURE_STAGES } from "./attribution.js";
import { formatDelta, formatValue } from "./format.js";
import type { EvalReport } from "./run-eval.js";

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => (r[col] ?? "").length)));
  return rows
    .map((r) => r.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join("  "))
    .join("\n");
}

/**
 * The loop against one plain search, on the retrieval measure the issue names: `recall@5: agentic 0.630 vs
 * single-pass 0.581 (+0.049)`, or `n/a` where the set has no gold sources.
 */
export function recallComparison(agentic: number | null | undefined, singlePass: number | null | undefined): string {
  const delta =
    typeof agentic === "number" && typeof singlePass === "number"
      ? ` (${formatDelta(agentic - singlePass, "ratio")})`
      : "";
  return `recall@5: agentic ${formatValue(agentic, "ratio")} vs single-pass ${formatValue(singlePass, "ratio")}${delta}`;
}

/** A plain-text summary for the terminal: metrics (with baseline and delta), per-type scores, failures. */
export function formatHeadline(report: EvalReport): string {
  const overall = report.aggregates.overall;
  const base = report.baseline?.aggregates.overall;
  const header = base ? ["metric", "run", "n", "baseline", "delta"] : ["metric", "run", "n"];
  const rows = [header];
  for (const def of METRICS) {
    const row = [def.name, formatValue(overall.metrics[def.name], def.format), String(overall.counts[def.name] ?? 0)];
    if (base) {
      row.push(formatValue(base.metrics[def.name], def.format), formatDelta(report.deltas?.[def.name], def.format));
    }
    rows.push(row);
  }
  const baseTypes = report.baseline?.aggregates.byType;
  const typeRows = [
    [
      "type",
      "n",
      "correct",
      "evidence_recall",
      "recall@5",
      ...(baseTypes ? ["single-pass recall@5"] : []),
      "tool_recall",
    ],
  ];
  for (const [type, agg] of Object.entries(report.aggregates.byType)) {
    typeRows.push([
      type,
      String(agg.n),
      formatValue(agg.metrics.answer_correctness, "ratio"),
      formatValue(agg.metrics.evidence_recall, "ratio"),
      formatValue(agg.metrics["recall@5"], "ratio"),
      ...(baseTypes ? [formatValue(baseTypes[type]?.metrics["recall@5"], "ratio")] : []),
      formatValue(agg.metrics.tool_recall, "ratio"),
    ]);
  }
  const failures = FAILURE_STAGES.filter((s) => overall.failures[s] > 0)
    .map((s) => `${s} ${overall.failures[s]}`)
    .join(", ");
  const { set } = report;
  return [
    `eval ${set.name}: ${set.questions} of ${set.total} questions, tenant ${set.tenant}`,
    ...(base ? ["", recallComparison(overall.metrics["recall@5"], base.metrics["recall@5"])] : []),
    "",
    table(rows),
    "",
    table(typeRows),
    "",
    `failures: ${failures === "" ? "none" : failures}`,
  ].join("\n");
}
