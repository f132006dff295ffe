import { type Aggregate, metricDef } from "./aggregate.js";
import type { EvalReport } from "./run-eval.js";

/**
 * A bound: a number takes the metric's natural direction; an object names `min` and/or `max`, and
 * `beatBaseline: true` also asks the run to do better than the baseline of the same run (`--baseline`).
 */
export type Threshold = number | { min?: number; max?: number; beatBaseline?: boolean };

/**
 * Thresholds per set name (the set folder's base name), then per metric as named in report.json.
 *
 * - `"answer_correctness": 0.8`: a bare number is a minimum for higher-is-better metrics and a maximum for
 *   lower-is-better ones (`leak_rate`, `tool_calls`, `llm_calls`, `tokens`, `cost_usd`, `latency_*`, `retrieval_rounds`).
 * - `"leak_rate": {"max": 0}` or `"leak_rate_max": 0`: an explicit bound (`{"min": x}` / `_min` likewise).
 * - `"multi_hop.answer_correctness": 0.5`: the metric over one question type.
 */
export type Thresholds = Record<string, Record<string, Threshold>>;

export interface GateFailure {
  set: string;
  /** The key as written in the thresholds. */
  key: string;
  metric: string;
  type?: string;
  kind: "below_min" | "above_max" | "missing" | "unknown_metric" | "not_above_baseline";
  actual: number | null;
  limit: number | null;
  message: string;
}

interface Bound {
  min?: number;
  max?: number;
  beatBaseline?: boolean;
}

function parseKey(key: string): { type?: string; metric: string; forced?: "min" | "max" } {
  const dot = key.indexOf(".");
  const type = dot > 0 ? key.slice(0, dot) : undefined;
  let metric = dot > 0 ? key.slice(dot + 1) : key;
  let forced: "min" | "max" | undefined;
  const suffix = /_(min|max)$/.exec(metric);
  if (suffix && metricDef(metric) === undefined) {
    forced = suffix[1] as "min" | "max";
    metric = metric.slice(0, -4);
  }
  return { type, metric, forced };
}

function boundOf(threshold: Threshold, better: "higher" | "lower", forced?: "min" | "max"): Bound {
  if (typeof threshold !== "number") return threshold;
  const side = forced ?? (better === "higher" ? "min" : "max");
  return side === "min" ? { min: threshold } : { max: threshold };
}

function fmt(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(3);
}

/** Every threshold the report misses, with a readable message; empty when the set passes (or has none). */
export function checkThresholds(report: EvalReport, thresholds: Thresholds): GateFailure[] {
  const set = report.set.name;
  const failures: GateFailure[] = [];
  for (const [key, threshold] of Object.entries(thresholds[set] ?? {})) {
    const { type, metric, forced } = parseKey(key);
    const where = type ? `${set} ${type}` : set;
    const base = { set, key, metric, ...(type ? { type } : {}) };
    const def = metricDef(metric);
    if (def === undefined) {
      failures.push({
        ...base,
        kind: "unknown_metric",
        actual: null,
        limit: null,
        message: `${where}: unknown metric "${metric}"`,
      });
      continue;
    }
    const aggregate: Aggregate | undefined = type ? report.aggregates.byType[type] : report.aggregates.overall;
    const actual = aggregate?.metrics[metric] ?? null;
    const bound = boundOf(threshold, def.better, forced);
    if (actual === null) {
      failures.push({
        ...base,
        kind: "missing",
        actual,
        limit: bound.min ?? bound.max ?? null,
        message: `${where}: ${metric} was not measured (no question it applies to)`,
      });
      continue;
    }
    if (bound.min !== undefined && actual < bound.min) {
      failures.push({
        ...base,
        kind: "below_min",
        actual,
        limit: bound.min,
        message: `${where}: ${metric} ${fmt(actual)} is below the minimum ${fmt(bound.min)}`,
      });
    }
    if (bound.max !== undefined && actual > bound.max) {
      failures.push({
        ...base,
        kind: "above_max",
        actual,
        limit: bound.max,
        message: `${where}: ${metric} ${fmt(actual)} is above the maximum ${fmt(bound.max)}`,
      });
    }
    if (bound.beatBaseline) {
      const baseAggregate = type ? report.baseline?.aggregates.byType[type] : report.baseline?.aggregates.overall;
      const baseline = baseAggregate?.metrics[metric] ?? null;
      const better =
        def.better === "higher" ? baseline !== null && actual > baseline : baseline !== null && actual < baseline;
      if (!better) {
        failures.push({
          ...base,
          kind: "not_above_baseline",
          actual,
          limit: baseline,
          message:
            baseline === null
              ? `${where}: ${metric} must beat the baseline, but the run has none (run with --baseline single-pass)`
              : `${where}: ${metric} ${fmt(actual)} does not beat the baseline's ${fmt(baseline)}`,
        });
      }
    }
  }
  return failures;
}
