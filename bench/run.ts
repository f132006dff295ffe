/**
 * ferret benchmarks.
 *
 *   npm run bench                       # every benchmark, full scale (about 12 minutes on 2 cores)
 *   npm run bench -- search-keyword     # only the named ones (any of the names below)
 *   npm run bench -- --quick            # 10k-chunk scale only, for development (about a minute)
 *   npx tsx bench/run.ts --quick ingest
 *
 * Benchmarks (one file each under bench/):
 *   ingest          keyword-only ingest through store.writeDocuments: chunks/s and peak RSS,
 *                   vs raw better-sqlite3 + FTS5 in one transaction, and vs minisearch addAll
 *   ingest-files    real-size ingest of files (1,000 generated PDF pages; 10 MB of Markdown, plain lines,
 *                   CJK) vs raw text extraction (pdfjs; read + decode), with peak RSS at 1 and 10 MB
 *   search-keyword  BM25 through the retriever (keyword mode) at 10k and 100k chunks: p50/p95, vs minisearch
 *   search-vector   100k x 384-d clustered vectors: sqlite-vec exact and usearch HNSW p50, HNSW recall@10,
 *                   vs a brute-force Float32Array cosine scan in JS; hybrid (RRF) latency at 10k
 *   loop-overhead   the agent loop's own cost per step, with a zero-latency scripted engine and retriever,
 *                   vs a minimal hand-written loop doing the same calls
 *   ask-offline     createFerret().ask() with the offline engine, p50/p95, vs one search() of the question
 *   simulated-llm   wall time and model round-trips per question with a fixed-latency scripted model:
 *                   ferret's loop vs a sequential retrieve-grade-rewrite-generate loop (LangGraph tutorial shape)
 *   sql             user SQL in its killable runner process: warm query latency vs in-process better-sqlite3,
 *                   runner start, event-loop stalls during a runaway, runner peak RSS under the memory cap
 *   serve           ferret serve on loopback under autocannon, 32 connections, 30 s each on /v1/search and offline
 *                   /v1/ask (5 s with --quick; FERRET_BENCH_SERVE_SECONDS=N sets it): req/s, p50/p99, errors and
 *                   the server's RSS growth, vs the same calls made in-process through the library
 *   anchors         ferret vs a LangGraph.js agentic-RAG graph and a plain AI SDK tool loop, one simulated model
 *                   (same latency and scripted decisions) and one store: model calls, tokens, wall time per
 *                   question and correctness on the acme questions (plus a northwind subset when ../shared exists)
 *   stores          SQLite vs PostgreSQL (PGlite with pgvector and pg_textsearch; a PostgreSQL 15 cluster where
 *                   initdb is on PATH, keyword only without pgvector) at 100k chunks (FERRET_BENCH_STORES_CHUNKS):
 *                   ingest chunks/s with 1 and 4 writers, BM25 and kNN p50/p95 (approximate and auto), kNN
 *                   recall@10, hybrid p50, with 1 and 4 clients;
 *                   FERRET_BENCH_STORES_PGLITE_LOAD=bulk measures PGlite's kNN alone at 100k (rows loaded by SQL)
 *
 * Reading the output: progress goes to stderr; each benchmark prints a table on stdout with ferret's
 * figure, the same-run baseline, the ratio ferret/baseline (for latency lower is better, for chunks/s
 * higher is better; the unit column says which) and the target with `ok` or `MISSED`. Notes under each
 * table give the scale and settings. Full results, with settings and raw figures, go to
 * bench/out/<name>.json (git-ignored). The corpus is synthetic and seeded (bench/corpus.ts), so runs are
 * comparable; the machine is not, so compare ratios across machines rather than absolute figures.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Benchmark, formatTable, writeResult } from "./report.js";

const REGISTRY: Record<string, () => Promise<Benchmark>> = {
  ingest: async () => (await import("./ingest.js")).ingestBenchmark,
  "ingest-files": async () => (await import("./ingest-files.js")).ingestFilesBenchmark,
  "search-keyword": async () => (await import("./search-keyword.js")).searchKeywordBenchmark,
  "search-vector": async () => (await import("./search-vector.js")).searchVectorBenchmark,
  "loop-overhead": async () => (await import("./loop-overhead.js")).loopOverheadBenchmark,
  "ask-offline": async () => (await import("./ask-offline.js")).askOfflineBenchmark,
  "simulated-llm": async () => (await import("./simulated-llm.js")).simulatedLlmBenchmark,
  sql: async () => (await import("./sql.js")).sqlBenchmark,
  serve: async () => (await import("./serve.js")).serveBenchmark,
  anchors: async () => (await import("./anchors.js")).anchorsBenchmark,
  stores: async () => (await import("./stores.js")).storesBenchmark,
};

function usage(): string {
  return `usage: tsx bench/run.ts [--quick] [NAME...]\nnames: ${Object.keys(REGISTRY).join(", ")}`;
}

async function main(argv: string[]): Promise<number> {
  const quick = argv.includes("--quick");
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(`${usage()}\n`);
    return 0;
  }
  const names = argv.filter((a) => !a.startsWith("-"));
  const unknown = names.filter((n) => !(n in REGISTRY));
  if (unknown.length > 0) {
    process.stderr.write(`unknown benchmark: ${unknown.join(", ")}\n${usage()}\n`);
    return 2;
  }
  const selected = names.length > 0 ? names : Object.keys(REGISTRY);
  const outDir = join(dirname(fileURLToPath(import.meta.url)), "out");
  const started = Date.now();
  const progress = (message: string) => {
    const secs = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
    process.stderr.write(`[${secs}s] ${message}\n`);
  };
  let failures = 0;
  for (const name of selected) {
    const scratch = mkdtempSync(join(tmpdir(), `ferret-bench-${name}-`));
    try {
      const load = REGISTRY[name];
      if (!load) continue;
      const bench = await load();
      progress(`${name}: ${bench.description}${quick ? " (quick)" : ""}`);
      const t0 = Date.now();
      const result = await bench.run({ quick, scratch, progress });
      const seconds = (Date.now() - t0) / 1000;
      process.stdout.write(`\n${formatTable(result)}\n\n`);
      const file = writeResult(outDir, result, {
        quick,
        seconds,
        at: new Date().toISOString(),
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
      });
      progress(`${name}: done in ${seconds.toFixed(1)}s, wrote ${file}`);
    } catch (error) {
      failures++;
      progress(`${name}: FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  progress(`all done in ${((Date.now() - started) / 1000).toFixed(1)}s${failures ? `, ${failures} failed` : ""}`);
  return failures > 0 ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
