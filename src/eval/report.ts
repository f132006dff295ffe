import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderHtml } from "./report-html.js";
import { calibrateThreshold, confidencePoints, riskCoverage, TARGET_REFUSAL_PRECISION } from "./risk-coverage.js";
import type { EvalReport, QuestionResult } from "./run-eval.js";

export { formatHeadline } from "./headline.js";

export interface ReportFiles {
  results: string;
  report: string;
  html: string;
  traces: string;
}

function resultLine(r: QuestionResult, baseline?: QuestionResult): string {
  const line = {
    id: r.id,
    type: r.type,
    question: r.question,
    answer: r.answer,
    metrics: r.metrics,
    failure: r.failure,
    ...(r.error ? { error: r.error } : {}),
    ...(baseline
      ? { baseline: { answer: baseline.answer, metrics: baseline.metrics, failure: baseline.failure } }
      : {}),
  };
  return JSON.stringify(line);
}

/** report.json: everything but answers and traces (those are in results.jsonl and traces.jsonl). */
function summary(report: EvalReport): unknown {
  const compact = (r: QuestionResult) => ({
    id: r.id,
    type: r.type,
    status: r.answer?.status ?? "error",
    stopReason: r.answer?.stopReason ?? null,
    correct: r.metrics.answer_correct === 1,
    confidence: r.metrics.confidence,
    failure: r.failure,
  });
  return {
    version: report.version,
    set: report.set,
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
    aggregates: report.aggregates,
    ...(report.baseline ? { baseline: { aggregates: report.baseline.aggregates }, deltas: report.deltas } : {}),
    risk_coverage: riskCoverage(confidencePoints(report.results)),
    refusal_calibration: calibrateThreshold(confidencePoints(report.results), TARGET_REFUSAL_PRECISION),
    questions: report.results.map(compact),
  };
}

/**
 * Writes results.jsonl (one line per question: id, type, question, the full answer, metrics, failure),
 * traces.jsonl (id and trace events per question), report.json (aggregates, baseline, deltas, per-question
 * outcome) and report.html (one self-contained page) into `outDir`, creating it.
 */
export function writeReport(report: EvalReport, outDir: string): ReportFiles {
  mkdirSync(outDir, { recursive: true });
  const files: ReportFiles = {
    results: join(outDir, "results.jsonl"),
    report: join(outDir, "report.json"),
    html: join(outDir, "report.html"),
    traces: join(outDir, "traces.jsonl"),
  };
  const baselineById = new Map(report.baseline?.results.map((r) => [r.id, r]));
  const lines = report.results.map((r) => resultLine(r, baselineById.get(r.id)));
  writeFileSync(files.results, lines.length > 0 ? `${lines.join("\n")}\n` : "");
  const traces = report.results.map((r) => JSON.stringify({ id: r.id, events: r.events }));
  writeFileSync(files.traces, traces.length > 0 ? `${traces.join("\n")}\n` : "");
  writeFileSync(files.report, `${JSON.stringify(summary(report), null, 2)}\n`);
  writeFileSync(files.html, renderHtml(report));
  return files;
}
