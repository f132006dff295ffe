import type { TraceEventLike } from "../runs/timeline.js";

/** What `ferret eval --out DIR` writes, as the page reads it (see src/eval/report.ts). */
export interface Aggregate {
  n: number;
  metrics: Record<string, number | null>;
}

export interface ReportJson {
  set: { name: string; questions: number };
  startedAt: string;
  aggregates: { overall: Aggregate; byType: Record<string, Aggregate> };
  baseline?: { aggregates: { overall: Aggregate } };
}

export interface ResultLine {
  id: string;
  type: string;
  question: string;
  answer: {
    status: string;
    text: string;
    runId: string;
    stopReason: string;
    citations: { n: number; docId: string; source: string; quote: string }[];
  } | null;
  metrics: Record<string, number | null>;
  failure: { stage: string; detail?: string } | null;
}

export type Threshold = number | { min?: number; max?: number; beatBaseline?: boolean };

export interface LoadedReport {
  report?: ReportJson;
  results: ResultLine[];
  gold: Map<string, string>;
  /** Trace events per question id, from traces.jsonl. */
  traces: Map<string, TraceEventLike[]>;
  thresholds?: Record<string, Record<string, Threshold>>;
}

const lines = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/**
 * Reads the chosen files by name: report.json, results.jsonl, and optionally traces.jsonl, the set's
 * questions.jsonl and a thresholds file.
 */
export async function readReportFiles(files: File[]): Promise<LoadedReport> {
  const loaded: LoadedReport = { results: [], gold: new Map(), traces: new Map() };
  for (const file of files) {
    const text = await file.text();
    if (file.name === "report.json") loaded.report = JSON.parse(text) as ReportJson;
    else if (file.name === "results.jsonl") loaded.results = lines(text) as unknown as ResultLine[];
    else if (file.name === "traces.jsonl")
      for (const t of lines(text)) loaded.traces.set(String(t.id), t.events as TraceEventLike[]);
    else if (file.name === "questions.jsonl")
      for (const q of lines(text)) loaded.gold.set(String(q.id), String(q.answer));
    else if (file.name.endsWith(".json") && file.name.includes("threshold"))
      loaded.thresholds = JSON.parse(text) as LoadedReport["thresholds"];
  }
  return loaded;
}

/** Pass or fail of one metric against its threshold (a number is a minimum; `leak_rate`-style ones set a max). */
export function verdict(
  value: number | null | undefined,
  threshold: Threshold | undefined,
  baseline?: number | null,
): "pass" | "fail" | undefined {
  if (threshold === undefined || value == null) return undefined;
  const t = typeof threshold === "number" ? { min: threshold } : threshold;
  if (t.min !== undefined && value < t.min) return "fail";
  if (t.max !== undefined && value > t.max) return "fail";
  if (t.beatBaseline && baseline != null && value <= baseline) return "fail";
  return "pass";
}

export const outcomeOf = (r: ResultLine): "correct" | "wrong" | "refused" | "error" =>
  !r.answer
    ? "error"
    : r.answer.status === "refused"
      ? "refused"
      : r.metrics.answer_correct === 1
        ? "correct"
        : "wrong";
