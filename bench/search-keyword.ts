/**
 * search-keyword: BM25 through the retriever in keyword mode (query segmentation, FTS5 bm25(), confidence
 * calibration, de-duplication) at 10k and 100k chunks, over ~200 queries of 2..4 words drawn from the
 * corpus's Zipfian vocabulary. Baseline: MiniSearch (in-memory JS BM25) on the same chunks and queries.
 */
import { join } from "node:path";
import MiniSearch from "minisearch";
import { createRetriever } from "../src/retrieval/search.js";
import { LOCAL_OWNER } from "../src/spec/principal.js";
import { queryTerms } from "../src/text/tokenize.js";
import { createCorpus } from "./corpus.js";
import { buildStore, scaleLabel } from "./fixtures.js";
import { latency, timeEach } from "./measure.js";
import type { BenchContext, Benchmark, BenchResult, ResultRow } from "./report.js";

const QUERIES = 200;
const WARMUP = 20;
const K = 10;
/** Per scale and engine: a pathological slowdown stops sampling here rather than stalling the run. */
const BUDGET_MS = 30_000;

export interface MiniChunk {
  id: string;
  title: string;
  section: string;
  text: string;
}

export function miniIndex(corpus: ReturnType<typeof createCorpus>): MiniSearch<MiniChunk> {
  const mini = new MiniSearch<MiniChunk>({ fields: ["title", "section", "text"] });
  for (const batch of corpus.batches(200)) {
    mini.addAll(
      batch.flatMap(({ doc, chunks }) =>
        chunks.map((c) => ({ id: c.id, title: doc.title, section: c.section.join(" "), text: c.text })),
      ),
    );
  }
  return mini;
}

async function atScale(ctx: BenchContext, chunks: number) {
  const label = scaleLabel(chunks);
  const corpus = createCorpus({ chunks });
  const store = await buildStore({ corpus, path: join(ctx.scratch, `kw-${label}.db`), progress: ctx.progress });
  const retriever = createRetriever({ store });
  const queries = corpus.keywordQueries(QUERIES + WARMUP);
  const search = (q: string) => retriever.search(q, { principal: LOCAL_OWNER, k: K, mode: "keyword" });
  ctx.progress(`search-keyword @${label}: ${QUERIES} retriever queries`);
  await timeEach(queries.slice(0, WARMUP), search, { budgetMs: BUDGET_MS / 4 });
  let hits = 0;
  const ferret = await timeEach(
    queries.slice(WARMUP),
    async (q) => {
      hits += (await search(q)).length;
    },
    { budgetMs: BUDGET_MS },
  );
  // The store's share: the FTS5 query alone, with the terms and candidate count the retriever asks for.
  const storeOnly = await timeEach(
    queries.slice(WARMUP),
    (q) => store.keywordSearch({ principal: LOCAL_OWNER, k: K * 3, terms: queryTerms(q) }),
    { budgetMs: BUDGET_MS },
  );
  await store.close();

  ctx.progress(`search-keyword @${label}: minisearch index and queries`);
  const mini = miniIndex(corpus);
  const miniSearch = (q: string) => mini.search(q).slice(0, K);
  await timeEach(queries.slice(0, WARMUP), miniSearch);
  const baseline = await timeEach(queries.slice(WARMUP), miniSearch);
  return {
    label,
    ferret: latency(ferret),
    store: latency(storeOnly),
    baseline: latency(baseline),
    meanHits: hits / ferret.length,
  };
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const scales = ctx.quick ? [10_000] : [10_000, 100_000];
  const rows: ResultRow[] = [];
  const extra: Record<string, unknown> = {};
  const notes = [
    `${QUERIES} queries (2..4 words from the Zipfian vocabulary, a quarter naming a planted entity), k=${K}, after ${WARMUP} warm-up queries`,
    "ferret: createRetriever({ store }).search(q, { mode: 'keyword' }) on a SQLite file; minisearch: search(q) (OR, exact terms) top 10",
  ];
  for (const chunks of scales) {
    const r = await atScale(ctx, chunks);
    extra[r.label] = r;
    if (r.ferret.n < QUERIES)
      notes.push(`@${r.label}: ferret stopped after ${r.ferret.n} queries (${BUDGET_MS / 1000}s budget)`);
    const big = chunks >= 100_000;
    for (const p of ["p50", "p95"] as const) {
      rows.push({
        metric: `keyword ${p} @${r.label}`,
        unit: "ms",
        ferret: r.ferret[p],
        baseline: r.baseline[p],
        baselineName: "minisearch",
        better: "lower",
        target: big ? { op: "<=", value: p === "p50" ? 5 : 20 } : undefined,
      });
    }
    rows.push({
      metric: `store.keywordSearch p50 @${r.label}`,
      unit: "ms",
      ferret: r.store.p50,
      baseline: r.baseline.p50,
      baselineName: "minisearch",
      better: "lower",
    });
  }
  return {
    name: "search-keyword",
    rows,
    notes,
    extra,
  };
}

export const searchKeywordBenchmark: Benchmark = {
  name: "search-keyword",
  description: "BM25 through the retriever at 10k and 100k chunks vs minisearch",
  run,
};
