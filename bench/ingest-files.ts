/**
 * ingest-files: real-size ingest through `ingestPath` (keyword-only), each phase in its own process:
 * - PDFs: 20 generated quarterly reports of 50 pages (1,000 pages; test/fixtures/pdf/filing.ts), vs raw text
 *   extraction of the same files (pdfjs getTextContent page by page, one thread). Target: under 90 s.
 * - Large texts: 10 MB of Markdown (headings, lists, tables), of plain text one sentence per line (no blank
 *   lines), and of Chinese and Japanese, vs reading and decoding the same file. Target: each under 20 s.
 * - Memory: peak RSS ingesting 1 MB and 10 MB of Markdown; flat in file size means far from 10x.
 * - Linearity: chunking and entity extraction of 4x the text, in several shapes (bench/text-linearity.ts).
 * Parsing runs in parse workers, one per core (at most 4); from TypeScript each worker first compiles the
 * parser through tsx, a second or so that the compiled CLI does not pay.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildFilingPdf } from "../test/fixtures/pdf/filing.js";
import { prose, type Shape } from "../test/fixtures/text/prose.js";
import type { BenchContext, Benchmark, BenchResult, ResultRow } from "./report.js";
import { measureLinearity } from "./text-linearity.js";

const MB = 1024 * 1024;
const CHILD = fileURLToPath(new URL("./ingest-child.ts", import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const WORKERS = Math.max(1, Math.min(4, availableParallelism()));

interface PhaseResult {
  ms: number;
  peakRssMb: number;
  pages?: number;
  chars?: number;
  bytes?: number;
  chunks?: number;
  added?: number;
  failed?: { file: string; reason: string }[];
}

/** Runs one phase in a child process (bench/ingest-child.ts) and returns what it printed. */
function phase(args: object, timeoutMs: number): Promise<PhaseResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", TSX, CHILD, JSON.stringify(args)], {
      stdio: ["ignore", "pipe", "inherit"],
      timeout: timeoutMs,
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code !== 0) return reject(new Error(`phase ${JSON.stringify(args)} ended with ${signal ?? code}`));
      resolve(JSON.parse(out.trim().split("\n").pop() ?? "{}") as PhaseResult);
    });
  });
}

/** A text file of about `bytes` UTF-8 bytes in a shape. */
function writeText(dir: string, name: string, shape: Shape, bytes: number): string {
  mkdirSync(dir, { recursive: true });
  const perChar = shape === "cjk" ? 2.6 : 1;
  const text = prose({ seed: bytes + shape.length, chars: Math.round(bytes / perChar), shape });
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const files = ctx.quick ? 4 : 20;
  const pages = ctx.quick ? 25 : 50;
  const big = ctx.quick ? 1 * MB : 10 * MB;
  const small = big / 10;
  const rows: ResultRow[] = [];
  const notes: string[] = [];
  const extra: Record<string, unknown> = {};
  const timeout = 30 * 60_000;

  // PDFs
  const pdfDir = join(ctx.scratch, "pdfs");
  mkdirSync(pdfDir, { recursive: true });
  ctx.progress(`ingest-files: writing ${files} report PDFs of ${pages} pages`);
  const pdfs = await writeFilings({ dir: pdfDir, files, pages });
  ctx.progress("ingest-files: raw pdfjs text extraction");
  const raw = await phase({ mode: "extract-pdf", files: pdfs }, timeout);
  ctx.progress(`ingest-files: ferret ingest of the PDFs, ${WORKERS} parse workers`);
  const pdfIngest = await phase(
    { mode: "ingest", path: pdfDir, db: join(ctx.scratch, "pdf.db"), workers: WORKERS },
    timeout,
  );
  const totalPages = raw.pages ?? 0;
  const pdfTarget = (90 * totalPages) / 1000;
  rows.push(
    {
      metric: `PDF ingest, ${totalPages} pages`,
      unit: "s",
      ferret: pdfIngest.ms / 1000,
      baseline: raw.ms / 1000,
      baselineName: "pdfjs text extraction",
      better: "lower",
      target: { op: "<", value: pdfTarget },
    },
    {
      metric: "PDF pages/s",
      unit: "pages/s",
      ferret: (totalPages / pdfIngest.ms) * 1000,
      baseline: (totalPages / raw.ms) * 1000,
      baselineName: "pdfjs text extraction",
      better: "higher",
    },
    {
      metric: "PDF peak RSS",
      unit: "MB",
      ferret: pdfIngest.peakRssMb,
      baseline: raw.peakRssMb,
      baselineName: "pdfjs text extraction",
      better: "lower",
    },
  );
  extra.pdf = { files, pages: totalPages, raw, ingest: pdfIngest };
  if (pdfIngest.failed?.length) notes.push(`PDF files failed: ${JSON.stringify(pdfIngest.failed)}`);

  // Large texts
  const shapes: [string, Shape, string][] = [
    ["Markdown", "markdown", "md"],
    ["plain lines", "lines", "txt"],
    ["CJK", "cjk", "md"],
  ];
  const texts: Record<string, unknown> = {};
  for (const [label, shape, ext] of shapes) {
    const dir = join(ctx.scratch, `text-${shape}`);
    const file = writeText(dir, `big.${ext}`, shape, big);
    ctx.progress(`ingest-files: ${label} text of ${(big / MB).toFixed(0)} MB`);
    const read = await phase({ mode: "read-text", files: [file] }, timeout);
    const ingest = await phase(
      { mode: "ingest", path: dir, db: join(ctx.scratch, `${shape}.db`), workers: WORKERS },
      timeout,
    );
    const mb = (read.bytes ?? big) / MB;
    rows.push(
      {
        metric: `${label} text ${mb.toFixed(1)} MB`,
        unit: "s",
        ferret: ingest.ms / 1000,
        baseline: read.ms / 1000,
        baselineName: "read + decode",
        better: "lower",
        target: { op: "<", value: (20 * mb) / 10 },
      },
      {
        metric: `${label} text MB/s`,
        unit: "MB/s",
        ferret: mb / (ingest.ms / 1000),
        baseline: mb / (read.ms / 1000),
        baselineName: "read + decode",
        better: "higher",
      },
    );
    texts[shape] = { bytes: read.bytes, read, ingest };
    if (ingest.failed?.length) notes.push(`${label}: failed ${JSON.stringify(ingest.failed)}`);
  }
  extra.texts = texts;

  // Memory in file size
  const smallDir = join(ctx.scratch, "text-small");
  writeText(smallDir, "small.md", "markdown", small);
  ctx.progress(`ingest-files: peak RSS at ${(small / MB).toFixed(1)} MB of Markdown`);
  const smallIngest = await phase(
    { mode: "ingest", path: smallDir, db: join(ctx.scratch, "small.db"), workers: WORKERS },
    timeout,
  );
  const bigIngest = (texts.markdown as { ingest: PhaseResult }).ingest;
  rows.push({
    metric: `peak RSS, ${(big / MB).toFixed(0)} MB vs ${(small / MB).toFixed(1)} MB of Markdown`,
    unit: "MB",
    ferret: bigIngest.peakRssMb,
    baseline: smallIngest.peakRssMb,
    baselineName: `${(small / MB).toFixed(1)} MB`,
    better: "lower",
    target: { op: "<", value: 3 * smallIngest.peakRssMb },
  });
  extra.memory = { small: smallIngest, big: bigIngest };

  const linearity = measureLinearity(ctx);
  rows.push(...linearity.rows);

  notes.push(
    `${files} PDFs x ${pages} pages (pdfkit: running headers and footers, headings, justified prose, tables); the PDF target is 90 s per 1,000 pages`,
    `texts of ${(big / MB).toFixed(0)} MB (CJK by UTF-8 bytes); the text target is 20 s per 10 MB; keyword-only (no embedder), ${WORKERS} parse workers`,
    "each phase runs in its own process; peak RSS is that process's maxRSS (workers included); raw extraction runs on one thread",
    linearity.note,
  );
  return { name: "ingest-files", rows, notes, extra };
}

const COMPANIES = ["Acme Corp", "Globex Inc", "Initech Holdings", "Umbrella Group", "Stark Industries"];

/**
 * Quarterly filings of `pages` pages each (the tests' filing builder: running headers and footers, headings,
 * prose, tables with two-line column headers, outline, debris), one seed per file; returns their paths.
 */
async function writeFilings(options: { dir: string; files: number; pages: number }): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < options.files; i++) {
    const path = join(options.dir, `report-${String(i + 1).padStart(2, "0")}.pdf`);
    const company = COMPANIES[i % COMPANIES.length] as string;
    const { bytes } = await buildFilingPdf({ pages: options.pages, seed: 1_000 + i, company });
    writeFileSync(path, bytes);
    paths.push(path);
  }
  return paths;
}

export const ingestFilesBenchmark: Benchmark = {
  name: "ingest-files",
  description: "real-size ingest (1,000 PDF pages, 10 MB texts) vs raw text extraction, and peak RSS",
  run,
};
