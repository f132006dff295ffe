import { describe, expect, it } from "vitest";
import { goodAsk, MINI } from "./__fixtures__/mini-ask.js";
import { checkThresholds, type Threshold } from "./gate.js";
import { loadEvalSet } from "./load-set.js";
import { runEval } from "./run-eval.js";

const report = await runEval({ set: loadEvalSet(MINI), ask: goodAsk });

describe("checkThresholds", () => {
  it("passes when every metric meets its threshold, and ignores other sets", () => {
    const failures = checkThresholds(report, {
      "eval-mini": {
        answer_correctness: 0.8,
        "recall@5": 0.8,
        latency_p95_ms: 1000,
        "single_hop.answer_correctness": 1,
      },
      northwind: { answer_correctness: 1 },
    });
    expect(failures).toEqual([]);
  });

  it("fails a metric below its minimum", () => {
    const failures = checkThresholds(report, { "eval-mini": { answer_correctness: 0.9 } });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ metric: "answer_correctness", kind: "below_min", limit: 0.9 });
    expect(failures[0]?.message).toBe("eval-mini: answer_correctness 0.833 is below the minimum 0.900");
  });

  it("with beatBaseline, fails a metric that does not beat the same run's baseline, or a run without one", () => {
    const recall = report.aggregates.overall.metrics["recall@5"] ?? 0;
    const withBaseline = (value: number) => ({
      ...report,
      baseline: {
        ...report,
        aggregates: { ...report.aggregates, overall: { ...report.aggregates.overall, metrics: { "recall@5": value } } },
      },
    });
    const bound = { "eval-mini": { "recall@5": { min: 0.5, beatBaseline: true } } };
    expect(checkThresholds(withBaseline(recall - 0.1), bound)).toEqual([]);
    const tied = checkThresholds(withBaseline(recall), bound);
    expect(tied.map((f) => f.kind)).toEqual(["not_above_baseline"]);
    expect(tied[0]?.message).toContain("does not beat the baseline");
    expect(checkThresholds(report, bound)[0]?.message).toContain("the run has none");
  });

  it("treats leak_rate and other costs as maxima, in every spelling", () => {
    const spellings: Record<string, Threshold>[] = [{ leak_rate: 0 }, { leak_rate: { max: 0 } }, { leak_rate_max: 0 }];
    for (const bound of spellings) {
      const failures = checkThresholds(report, { "eval-mini": bound });
      expect(failures.map((f) => f.kind)).toEqual(["above_max"]);
      expect(failures[0]?.message).toContain("leak_rate 1 is above the maximum 0");
    }
    expect(checkThresholds(report, { "eval-mini": { tool_calls: 0.1 } })[0]?.kind).toBe("above_max");
    expect(checkThresholds(report, { "eval-mini": { answer_correctness_max: 0.5 } })[0]?.kind).toBe("above_max");
  });

  it("checks one question type, and reports unknown or unmeasured metrics", () => {
    const failures = checkThresholds(report, {
      "eval-mini": { "aggregation.answer_correctness": 0.5, "multi_hop.evidence_recall": 0.5, answer_corectness: 0.5 },
    });
    expect(failures.map((f) => [f.kind, f.type ?? null])).toEqual([
      ["below_min", "aggregation"],
      ["missing", "multi_hop"],
      ["unknown_metric", null],
    ]);
    expect(failures[0]?.message).toBe("eval-mini aggregation: answer_correctness 0 is below the minimum 0.500");
  });
});
