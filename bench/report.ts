/** Bench results: one row per measured figure, printed as a table and written as JSON. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface ResultRow {
  /** What was measured, e.g. `keyword p50 @100k`. */
  metric: string;
  unit: string;
  ferret: number;
  /** The same-run reference figure, when there is one. */
  baseline?: number;
  baselineName?: string;
  /** `lower` when a smaller figure is better (latency), `higher` for throughput. */
  better: "lower" | "higher";
  /** The target, e.g. `<= 5`. */
  target?: { op: "<=" | ">=" | "<"; value: number };
}

export interface BenchResult {
  name: string;
  rows: ResultRow[];
  /** Settings and anything a reader needs to interpret the rows (scale, latency model, ...). */
  notes: string[];
  extra?: Record<string, unknown>;
}

export interface BenchContext {
  quick: boolean;
  /** A fresh scratch folder for this benchmark's databases (removed afterwards). */
  scratch: string;
  progress(message: string): void;
}

export interface Benchmark {
  name: string;
  description: string;
  run(ctx: BenchContext): Promise<BenchResult>;
}

export function ratio(row: ResultRow): number | undefined {
  if (row.baseline === undefined || row.baseline === 0) return undefined;
  return row.ferret / row.baseline;
}

export function meetsTarget(row: ResultRow): boolean | undefined {
  const t = row.target;
  if (!t) return undefined;
  if (t.op === "<=") return row.ferret <= t.value;
  if (t.op === "<") return row.ferret < t.value;
  return row.ferret >= t.value;
}

function fmt(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return "-";
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString("en-US");
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toFixed(3);
}

export function formatTable(result: BenchResult): string {
  const header = ["metric", "unit", "ferret", "baseline", "ratio", "target"];
  const lines = result.rows.map((row) => {
    const r = ratio(row);
    const ok = meetsTarget(row);
    return [
      row.metric,
      row.unit,
      fmt(row.ferret),
      row.baseline === undefined ? "-" : `${fmt(row.baseline)} (${row.baselineName ?? "baseline"})`,
      r === undefined ? "-" : `${fmt(r)}x`,
      row.target ? `${row.target.op} ${fmt(row.target.value)} ${ok ? "ok" : "MISSED"}` : "",
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? "").length)));
  const render = (cells: string[]) =>
    cells
      .map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const out = [`== ${result.name} ==`, render(header), render(widths.map((w) => "-".repeat(w)))];
  for (const l of lines) out.push(render(l));
  for (const note of result.notes) out.push(`  note: ${note}`);
  return out.join("\n");
}

export function writeResult(dir: string, result: BenchResult, meta: Record<string, unknown>): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${result.name}.json`);
  const rows = result.rows.map((row) => ({ ...row, ratio: ratio(row), meetsTarget: meetsTarget(row) }));
  writeFileSync(file, `${JSON.stringify({ ...meta, ...result, rows }, null, 2)}\n`);
  return file;
}
