import { describe, expect, it } from "vitest";
import type { Principal } from "../spec/principal.js";
import { answer } from "./__fixtures__/builders.js";
import { goodAsk, MINI } from "./__fixtures__/mini-ask.js";
import { loadEvalSet } from "./load-set.js";
import { runEval } from "./run-eval.js";

describe("runEval", () => {
  it("asks every question with its principal and scores the answers", async () => {
    const set = loadEvalSet(MINI);
    const seen: Record<string, Principal> = {};
    const progress: number[] = [];
    const report = await runEval({
      set,
      ask: async (q, principal) => {
        seen[q.id] = principal;
        return goodAsk(q, principal);
      },
      concurrency: 3,
      onProgress: (done, total) => {
        progress.push(done);
        expect(total).toBe(6);
      },
      now: () => 0,
    });
    expect(seen["m-001"]).toEqual({ tenant: "mini", user: "eval", roles: ["admin", "finance"] });
    expect(seen["m-004"]?.user).toBe("eng");
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
    expect(report.results.map((r) => r.id)).toEqual(["m-001", "m-002", "m-003", "m-004", "m-005", "m-006"]);

    const overall = report.aggregates.overall;
    expect(overall.n).toBe(6);
    expect(overall.metrics.answer_correctness).toBeCloseTo(5 / 6);
    expect(overall.metrics.leak_rate).toBe(1);
    expect(overall.counts.leak_rate).toBe(1);
    expect(overall.metrics.evidence_recall).toBeCloseTo((1 + 1 + 0.5) / 3);
    expect(overall.metrics.latency_p50_ms).toBe(100);
    expect(overall.metrics.cost_usd).toBeCloseTo(0.002);
    expect(overall.failures.retriever).toBe(1);
    expect(overall.failures.answerer).toBe(1);
    expect(report.aggregates.byType.aggregation?.metrics.answer_correctness).toBe(0);
    expect(report.aggregates.byType.single_hop?.metrics.answer_correctness).toBe(1);
    expect(report.results[2]?.failure?.stage).toBe("retriever");
    expect(report.set).toMatchObject({ name: "eval-mini", tenant: "mini", questions: 6, total: 6 });
  });

  it("runs a baseline side by side, honours limit, and records a failed run as an error", async () => {
    const set = loadEvalSet(MINI);
    const report = await runEval({
      set,
      ask: goodAsk,
      baselineAsk: async (q) => {
        if (q.id === "m-002") throw new Error("model down");
        return { answer: answer({ status: "refused", text: "No." }), events: [] };
      },
      limit: 2,
    });
    expect(report.results).toHaveLength(2);
    expect(report.set.questions).toBe(2);
    const baseline = report.baseline!;
    expect(baseline.results[1]).toMatchObject({
      answer: null,
      error: "Error: model down",
      failure: { stage: "error" },
    });
    expect(baseline.aggregates.overall.metrics.answer_correctness).toBe(0);
    expect(report.deltas?.answer_correctness).toBe(1);
    expect(baseline.results[1]?.metrics.evidence_recall).toBe(0);
    expect(report.deltas?.evidence_recall).toBe(1);
    expect(report.deltas?.citation_precision).toBeNull();
  });

  it("splits a set into halves that do not overlap and together hold every question", async () => {
    const set = loadEvalSet(MINI);
    const ids = async (split: "dev" | "test") => (await runEval({ set, ask: goodAsk, split })).results.map((r) => r.id);
    const dev = await ids("dev");
    const test = await ids("test");
    expect(dev).toEqual(set.questions.filter((_, i) => i % 2 === 0).map((q) => q.id));
    expect(test).toEqual(set.questions.filter((_, i) => i % 2 === 1).map((q) => q.id));
    expect([...dev, ...test].sort()).toEqual(set.questions.map((q) => q.id).sort());
  });
});
