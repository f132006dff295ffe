import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { answer } from "./__fixtures__/builders.js";
import { goodAsk, MINI } from "./__fixtures__/mini-ask.js";
import { recallComparison } from "./headline.js";
import { loadEvalSet } from "./load-set.js";
import { formatHeadline, writeReport } from "./report.js";
import { runEval } from "./run-eval.js";

const out = mkdtempSync(join(tmpdir(), "ferret-report-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function report(withBaseline: boolean) {
  return runEval({
    set: loadEvalSet(MINI),
    ask: goodAsk,
    ...(withBaseline
      ? { baselineAsk: async () => ({ answer: answer({ status: "refused", text: "No <b>idea</b>." }), events: [] }) }
      : {}),
    now: () => Date.UTC(2026, 4, 1),
  });
}

describe("writeReport", () => {
  it("writes results.jsonl, report.json, traces.jsonl and a self-contained report.html", async () => {
    const files = writeReport(await report(true), out);

    const lines = readFileSync(files.results, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatchObject({ id: "m-001", type: "single_hop", answer: { text: "45 seconds [1]." } });
    expect(lines[0].metrics.answer_correct).toBe(1);
    expect(lines[0].baseline.answer.status).toBe("refused");

    const json = JSON.parse(readFileSync(files.report, "utf8"));
    expect(json.aggregates.overall.metrics.answer_correctness).toBeCloseTo(5 / 6);
    expect(json.baseline.aggregates.overall.n).toBe(6);
    expect(json.deltas.answer_correctness).toBeCloseTo(5 / 6 - 2 / 6);
    expect(json.questions[2]).toMatchObject({ id: "m-003", correct: false, failure: { stage: "retriever" } });
    expect(json.aggregates.overall.metrics).toHaveProperty("false_refusal");
    expect(json.aggregates.overall.metrics).toHaveProperty("unanswerable_refused");
    expect(Array.isArray(json.risk_coverage)).toBe(true);
    expect(json.refusal_calibration).toMatchObject({ target: 0.8 });

    const traces = readFileSync(files.traces, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(traces[0].events[0].type).toBe("tool-call-start");

    const html = readFileSync(files.html, "utf8");
    expect(html).toContain('<table id="headline">');
    expect(html).toContain("<th>baseline</th><th>delta</th>");
    // Per type, latency, and the risk–coverage curve.
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(html).toContain('id="risk-coverage"');
    expect(html).toContain('<details id="q-m-003">');
    expect(html).toContain('href="#q-m-003"');
    expect(html).toContain("tool-call-end search ok");
    expect(html).not.toMatch(/<script|<link|src="http/);
    expect(html).toContain("No &lt;b&gt;idea&lt;/b&gt;.");
  });
});

describe("formatHeadline", () => {
  it("prints a metric table, the per-type scores and failures", async () => {
    const text = formatHeadline(await report(false));
    expect(text).toMatch(/^eval eval-mini: 6 of 6 questions, tenant mini/);
    expect(text).toMatch(/answer_correctness\s+0\.833\s+6/);
    expect(text).toMatch(/aggregation\s+1\s+0\.000/);
    expect(text).toContain("failures: retriever 1, answerer 1");
    expect(text).not.toContain("baseline");
    expect(text).not.toContain("single-pass");
  });

  it("sets the loop's recall@5 beside the single pass's, overall and per type", async () => {
    const text = formatHeadline(await report(true));
    expect(text).toMatch(/recall@5: agentic \S+ vs single-pass 0\.000/);
    expect(text).toContain("single-pass recall@5");
  });
});

describe("recallComparison", () => {
  it("says both and the difference", () => {
    expect(recallComparison(0.63, 0.581)).toBe("recall@5: agentic 0.630 vs single-pass 0.581 (+0.049)");
    expect(recallComparison(null, 0.5)).toContain("vs single-pass 0.500");
  });
});
