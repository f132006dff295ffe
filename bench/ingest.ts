/**
 * ingest: keyword-only ingest of the synthetic corpus through `store.writeDocuments`, in batches of 200
 * documents (~1,000 chunks). Only the time inside the write calls counts (the corpus is generated between
 * batches, outside the clock). Baselines on the same batches: raw better-sqlite3 inserts into a plain table
 * plus an FTS5 table in one transaction, and MiniSearch `addAll` (in-memory JS BM25).
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import MiniSearch from "minisearch";
import type { DocumentWrite } from "../src/spec/document.js";
import { createSqliteStore } from "../src/stores/sqlite/index.js";
import { searchText } from "../src/text/tokenize.js";
import { createCorpus } from "./corpus.js";
import { BATCH_DOCUMENTS, registerSource } from "./fixtures.js";
import { MB, now, RssSampler } from "./measure.js";
import type { BenchContext, Benchmark, BenchResult } from "./report.js";

interface Phase {
  ms: number;
  peakMb: number;
  startMb: number;
}

async function measure(
  label: string,
  ctx: BenchContext,
  batches: () => Generator<DocumentWrite[]>,
  write: (batch: DocumentWrite[]) => Promise<void> | void,
  finish: () => Promise<void> | void,
): Promise<Phase> {
  global.gc?.();
  const rss = new RssSampler();
  let ms = 0;
  let chunks = 0;
  let nextReport = 25_000;
  for (const batch of batches()) {
    const start = now();
    await write(batch);
    ms += now() - start;
    rss.sample();
    chunks += batch.reduce((n, w) => n + w.chunks.length, 0);
    if (chunks >= nextReport) {
      ctx.progress(`  ${label}: ${chunks.toLocaleString("en-US")} chunks, ${Math.round((chunks / ms) * 1000)}/s`);
      nextReport += 25_000;
    }
  }
  const start = now();
  await finish();
  ms += now() - start;
  const { peakBytes, startBytes } = rss.stop();
  return { ms, peakMb: peakBytes / MB, startMb: startBytes / MB };
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const chunks = ctx.quick ? 10_000 : 100_000;
  const corpus = createCorpus({ chunks });
  corpus.verify(200);
  const batches = () => corpus.batches(BATCH_DOCUMENTS);

  ctx.progress(`ingest: ferret store.writeDocuments, ${chunks.toLocaleString("en-US")} chunks`);
  const store = await createSqliteStore({ path: join(ctx.scratch, "ferret.db") });
  await registerSource(store, corpus);
  const ferret = await measure(
    "ferret",
    ctx,
    batches,
    (b) => store.writeDocuments(b),
    () => store.close(),
  );

  ctx.progress("ingest: raw better-sqlite3 + FTS5, one transaction");
  const db = new Database(join(ctx.scratch, "raw.db"));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec(`CREATE TABLE chunks (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL, doc_id TEXT NOT NULL, title TEXT NOT NULL,
             section TEXT NOT NULL, text TEXT NOT NULL);
           CREATE VIRTUAL TABLE chunks_fts USING fts5 (title, section, body, tokenize = 'porter unicode61 remove_diacritics 2');`);
  const insertChunk = db.prepare("INSERT INTO chunks (id, doc_id, title, section, text) VALUES (?, ?, ?, ?, ?)");
  const insertFts = db.prepare("INSERT INTO chunks_fts (rowid, title, section, body) VALUES (?, ?, ?, ?)");
  db.exec("BEGIN");
  const raw = await measure(
    "raw sqlite",
    ctx,
    batches,
    (batch) => {
      for (const { doc, chunks: list } of batch) {
        const title = searchText(doc.title);
        for (const chunk of list) {
          const { lastInsertRowid } = insertChunk.run(
            chunk.id,
            doc.id,
            doc.title,
            chunk.section.join(" > "),
            chunk.text,
          );
          insertFts.run(lastInsertRowid, title, searchText(chunk.section.join(" ")), chunk.searchText);
        }
      }
    },
    () => {
      db.exec("COMMIT");
      db.close();
    },
  );

  ctx.progress("ingest: minisearch addAll");
  const mini = new MiniSearch<{ id: string; title: string; section: string; text: string }>({
    fields: ["title", "section", "text"],
  });
  const minisearch = await measure(
    "minisearch",
    ctx,
    batches,
    (batch) =>
      mini.addAll(
        batch.flatMap(({ doc, chunks: list }) =>
          list.map((c) => ({ id: c.id, title: doc.title, section: c.section.join(" "), text: c.text })),
        ),
      ),
    () => undefined,
  );

  const perSecond = (p: Phase) => (chunks / p.ms) * 1000;
  return {
    name: "ingest",
    rows: [
      {
        metric: `chunks/s @${chunks / 1000}k`,
        unit: "chunks/s",
        ferret: perSecond(ferret),
        baseline: perSecond(raw),
        baselineName: "raw SQLite+FTS5",
        better: "higher",
        target: { op: ">=", value: 5000 },
      },
      {
        metric: `chunks/s @${chunks / 1000}k`,
        unit: "chunks/s",
        ferret: perSecond(ferret),
        baseline: perSecond(minisearch),
        baselineName: "minisearch addAll",
        better: "higher",
      },
      {
        metric: "peak RSS",
        unit: "MB",
        ferret: ferret.peakMb,
        baseline: raw.peakMb,
        baselineName: "raw SQLite+FTS5",
        better: "lower",
        target: { op: "<", value: 1024 },
      },
      {
        metric: "peak RSS",
        unit: "MB",
        ferret: ferret.peakMb,
        baseline: minisearch.peakMb,
        baselineName: "minisearch addAll",
        better: "lower",
      },
    ],
    notes: [
      `${chunks.toLocaleString("en-US")} chunks in ${corpus.documentCount.toLocaleString("en-US")} documents, batches of ${BATCH_DOCUMENTS} documents; no vectors`,
      "time counts the write calls only (plus close/commit); the corpus is generated between batches",
      `RSS is the whole process, sampled per batch and every 25 ms; at the start of each phase: ferret ${ferret.startMb.toFixed(0)} MB, raw ${raw.startMb.toFixed(0)} MB, minisearch ${minisearch.startMb.toFixed(0)} MB (phases run in that order in one process, so later peaks include memory not returned to the OS)`,
    ],
    extra: { ferret, raw, minisearch, chunks, documents: corpus.documentCount },
  };
}

export const ingestBenchmark: Benchmark = {
  name: "ingest",
  description: "keyword-only ingest through store.writeDocuments vs raw SQLite+FTS5 and minisearch",
  run,
};
