/**
 * One measured phase of the ingest-files bench, in its own process so its peak RSS is its own:
 *   tsx bench/ingest-child.ts '{"mode":"ingest","path":...,"db":...,"workers":2}'
 *   tsx bench/ingest-child.ts '{"mode":"extract-pdf","files":[...]}'     raw pdfjs getTextContent, page by page
 *   tsx bench/ingest-child.ts '{"mode":"read-text","files":[...]}'       raw read + UTF-8 decode
 * Prints one JSON line: { ms, peakRssMb, ... }.
 */
import { readFile } from "node:fs/promises";
import { ingestPath } from "../src/ingest/ingest.js";
import { createSqliteStore } from "../src/stores/sqlite/index.js";

type Phase =
  | { mode: "ingest"; path: string; db: string; workers: number }
  | { mode: "extract-pdf"; files: string[] }
  | { mode: "read-text"; files: string[] };

async function ingest(phase: Extract<Phase, { mode: "ingest" }>) {
  const store = await createSqliteStore({ path: phase.db });
  try {
    const summary = await ingestPath({ store, path: phase.path, source: "bench", workers: phase.workers });
    return { added: summary.added, chunks: summary.chunks, failed: summary.failed, skipped: summary.skipped };
  } finally {
    await store.close();
  }
}

async function extractPdf(files: string[]) {
  const { getDocument, VerbosityLevel } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  let pages = 0;
  let chars = 0;
  for (const file of files) {
    const data = new Uint8Array(await readFile(file));
    const doc = await getDocument({
      data,
      verbosity: VerbosityLevel.ERRORS,
      isEvalSupported: false,
      useSystemFonts: false,
      disableFontFace: true,
    }).promise;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      for (const item of (await page.getTextContent()).items) if ("str" in item) chars += item.str.length;
      page.cleanup();
      pages++;
    }
    await doc.destroy();
  }
  return { pages, chars };
}

async function readText(files: string[]) {
  let chars = 0;
  let bytes = 0;
  for (const file of files) {
    const data = await readFile(file);
    bytes += data.length;
    chars += new TextDecoder("utf-8", { fatal: false }).decode(data).length;
  }
  return { bytes, chars };
}

const phase = JSON.parse(process.argv[2] ?? "{}") as Phase;
const start = performance.now();
const result =
  phase.mode === "ingest"
    ? await ingest(phase)
    : phase.mode === "extract-pdf"
      ? await extractPdf(phase.files)
      : await readText(phase.files);
const ms = performance.now() - start;
const peakRssMb = process.resourceUsage().maxRSS / 1024;
process.stdout.write(`${JSON.stringify({ ms, peakRssMb, ...result })}\n`);
