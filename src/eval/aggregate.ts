import { FAILURE_STAGES, type Failure, type FailureStage } from "./attribution.js";
import { percentile } from "./metrics/percentile.js";
import type { QuestionMetrics } from "./score-question.js";

export type MetricFormat = "ratio" | "count" | "ms" | "usd";

export interface MetricDef {
  /** Name in report.json and in thresholds. */
  name: string;
  /** The per-question score it aggregates. */
  from: keyof QuestionMetrics;
  agg: "mean" | "sum" | "p50" | "p95";
  better: "higher" | "lower";
  format: MetricFormat;
}

const ratio = (name: string, from: keyof QuestionMetrics, better: "higher" | "lower" = "higher"): MetricDef => ({
  name,
  from,
  agg: "mean",
  better,
  format: "ratio",
});

/** Every aggregate metric, in report order. Means skip questions where the score does not apply (`null`). */
export const METRICS: readonly MetricDef[] = [
  ratio("answer_correctness", "answer_correct"),
  ratio("refusal_accuracy", "refusal_accurate"),
  ratio("false_refusal", "false_refusal", "lower"),
  ratio("unanswerable_refused", "unanswerable_refused"),
  ratio("exact_match", "exact_match"),
  ratio("answer_f1", "answer_f1"),
  ratio("citation_precision", "citation_precision"),
  ratio("citation_grounding", "citation_grounding"),
  ratio("evidence_recall", "evidence_recall"),
  ratio("recall@2", "recall@2"),
  ratio("recall@5", "recall@5"),
  ratio("recall@10", "recall@10"),
  ratio("all_gold@2", "all_gold@2"),
  ratio("all_gold@5", "all_gold@5"),
  ratio("all_gold@10", "all_gold@10"),
  ratio("tool_precision", "tool_precision"),
  ratio("tool_recall", "tool_recall"),
  ratio("sub_question_coverage", "sub_question_coverage"),
  ratio("trajectory_efficiency", "trajectory_efficiency"),
  ratio("leak_rate", "leak", "lower"),
  { name: "retrieval_rounds", from: "retrieval_rounds", agg: "mean", better: "lower", format: "count" },
  { name: "tool_calls", from: "tool_calls", agg: "mean", better: "lower", format: "count" },
  { name: "probes", from: "probes", agg: "mean", better: "lower", format: "count" },
  { name: "llm_calls", from: "llm_calls", agg: "mean", better: "lower", format: "count" },
  { name: "tokens", from: "tokens", agg: "mean", better: "lower", format: "count" },
  { name: "cost_usd", from: "cost_usd", agg: "sum", better: "lower", format: "usd" },
  { name: "latency_p50_ms", from: "latency_ms", agg: "p50", better: "lower", format: "ms" },
  { name: "latency_p95_ms", from: "latency_ms", agg: "p95", better: "lower", format: "ms" },
];

export function metricDef(name: string): MetricDef | undefined {
  return METRICS.find((m) => m.name === name);
}

export interface Aggregate {
  /** Questions aggregated. */
  n: number;
  /** Metric name to value; `null` where no question had the score. */
  metrics: Record<string, number | null>;
  /** Metric name to the number of questions that had the score. */
  counts: Record<string, number>;
  /** Wrong (or leaking) answers per failure stage. */
  failures: Record<FailureStage, number>;
}

export interface Scored {
  type: string;
  metrics: QuestionMetrics;
  failure: Failure | null;
}

function combine(def: MetricDef, values: number[]): number | null {
  if (values.length === 0) return null;
  switch (def.agg) {
    case "sum":
      return values.reduce((a, b) => a + b, 0);
    case "p50":
      return percentile(values, 50);
    case "p95":
      return percentile(values, 95);
    default:
      return values.reduce((a, b) => a + b, 0) / values.length;
  }
}

export function aggregate(results: readonly Scored[]): Aggregate {
  const metrics: Record<string, number | null> = {};
  const counts: Record<string, number> = {};
  for (const def of METRICS) {
    const values = results.map((r) => r.metrics[def.from]).filter((v): v is number => v !== null);
    metrics[def.name] = combine(def, values);
    counts[def.name] = values.length;
  }
  const failures = Object.fromEntries(FAILURE_STAGES.map((s) => [s, 0])) as Record<FailureStage, number>;
  for (const r of results) if (r.failure) failures[r.failure.stage]++;
  return { n: results.length, metrics, counts, failures };
}

export interface Aggregates {
  overall: Aggregate;
  byType: Record<string, Aggregate>;
}

export function aggregateAll(results: readonly Scored[]): Aggregates {
  const types = [...new Set(results.map((r) => r.type))];
  const byType: Record<string, Aggregate> = {};
  for (const type of types) byType[type] = aggregate(results.filter((r) => r.type === type));
  return { overall: aggregate(results), byType };
}

/** Overall metric differences `run - baseline`; `null` where either side is missing. */
export function deltas(run: Aggregate, baseline: Aggregate): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const def of METRICS) {
    const a = run.metrics[def.name];
    const b = baseline.metrics[def.name];
    out[def.name] = a == null || b == null ? null : a - b;
  }
  return out;
}
