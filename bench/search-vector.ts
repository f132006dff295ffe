/**
 * search-vector: 100,000 x 384-d clustered unit vectors (generated, no model) in the SQLite store.
 * Measures store.vectorSearch with `exact` (sqlite-vec scan) and `approximate` (usearch HNSW side index)
 * p50, and recall@10 of approximate against exact; baseline: a brute-force Float32Array cosine scan in JS.
 * Then hybrid retrieval (keyword + vector, RRF) with the hashing embedder on the 10k-chunk text corpus,
 * against keyword-only retrieval on the same store.
 */
import { join } from "node:path";
import { createHashingEmbedder } from "../src/embedders/hashing.js";
import { createRetriever } from "../src/retrieval/search.js";
import type { DocumentWrite } from "../src/spec/document.js";
import { LOCAL_OWNER } from "../src/spec/principal.js";
import { createSqliteStore } from "../src/stores/sqlite/index.js";
import { createCorpus } from "./corpus.js";
import { buildStore, scaleLabel } from "./fixtures.js";
import { latency, now, timeEach } from "./measure.js";
import type { BenchContext, Benchmark, BenchResult, ResultRow } from "./report.js";
import { bruteForceTopK, clusteredVectors, MODEL_LIKE } from "./vectors.js";

const DIMS = MODEL_LIKE.dims;
const K = 10;
const QUERIES = 100;
const BUDGET_MS = 30_000;
const { seed: VECTOR_SEED, clusters: CLUSTERS, spread: SPREAD } = MODEL_LIKE;
const CHUNKS_PER_DOC = 5;

async function vectorPart(ctx: BenchContext, count: number) {
  const label = scaleLabel(count);
  const store = await createSqliteStore({ path: join(ctx.scratch, `vec-${label}.db`) });
  await store.putSource({ name: "vectors", tenant: "default", kind: "documents", description: "vectors", acl: [] });
  const data = clusteredVectors({ dims: DIMS, clusters: CLUSTERS, spread: SPREAD, seed: VECTOR_SEED, stream: 1 });
  const matrix = new Float32Array(count * DIMS);
  ctx.progress(`search-vector: writing ${count.toLocaleString("en-US")} x ${DIMS}-d vectors`);
  const writeStart = now();
  for (let d = 0; d * CHUNKS_PER_DOC < count; d += 200) {
    const batch: DocumentWrite[] = [];
    for (let doc = d; doc < d + 200 && doc * CHUNKS_PER_DOC < count; doc++) {
      const id = `v-${doc}`;
      const chunks = [];
      for (let o = 0; o < CHUNKS_PER_DOC && doc * CHUNKS_PER_DOC + o < count; o++) {
        const row = doc * CHUNKS_PER_DOC + o;
        const embedding = data.next();
        matrix.set(embedding, row * DIMS);
        const text = `vector ${row}`;
        chunks.push({
          id: `${id}::${o}`,
          docId: id,
          ordinal: o,
          text,
          section: [],
          start: 0,
          end: text.length,
          tokens: 2,
          searchText: text,
          embedding,
        });
      }
      batch.push({
        doc: { id, source: "vectors", tenant: "default", title: id, acl: [], contentHash: id, text: "", metadata: {} },
        chunks,
      });
    }
    await store.writeDocuments(batch);
  }
  const writeMs = now() - writeStart;
  await store.setEmbedderInfo("default", { id: "bench:clustered", dimensions: DIMS });

  const queries = clusteredVectors({ dims: DIMS, clusters: CLUSTERS, spread: SPREAD, seed: VECTOR_SEED, stream: 2 });
  const qs = Array.from({ length: QUERIES }, () => queries.next());
  const search = (vector: Float32Array, strategy: "exact" | "approximate") =>
    store.vectorSearch({ principal: LOCAL_OWNER, k: K, vector, strategy });

  ctx.progress("search-vector: exact (sqlite-vec)");
  await search(qs[0]!, "exact");
  const exactIds: string[][] = [];
  const exact = await timeEach(qs, async (v) => exactIds.push((await search(v, "exact")).map((h) => h.id)), {
    budgetMs: BUDGET_MS,
  });

  ctx.progress("search-vector: building the HNSW side index (first approximate query)");
  const buildStart = now();
  await search(qs[0]!, "approximate");
  const hnswBuildMs = now() - buildStart;
  ctx.progress(`search-vector: HNSW built in ${(hnswBuildMs / 1000).toFixed(1)}s; approximate queries`);
  const approxIds: string[][] = [];
  const approx = await timeEach(qs, async (v) => approxIds.push((await search(v, "approximate")).map((h) => h.id)), {
    budgetMs: BUDGET_MS,
  });
  let found = 0;
  let possible = 0;
  for (let i = 0; i < Math.min(exactIds.length, approxIds.length); i++) {
    const truth = new Set(exactIds[i]);
    possible += truth.size;
    for (const id of approxIds[i] ?? []) if (truth.has(id)) found++;
  }
  await store.close();

  ctx.progress("search-vector: brute-force JS scan");
  const bruteIds: number[][] = [];
  const brute = await timeEach(qs, (v) => bruteIds.push(bruteForceTopK(matrix, DIMS, v, K)), { budgetMs: BUDGET_MS });
  // The JS scan and sqlite-vec should agree: a check that "exact" is exact.
  let agree = 0;
  let compared = 0;
  for (let i = 0; i < Math.min(bruteIds.length, exactIds.length); i++) {
    const truth = new Set(
      (bruteIds[i] ?? []).map((row) => `v-${Math.floor(row / CHUNKS_PER_DOC)}::${row % CHUNKS_PER_DOC}`),
    );
    compared += truth.size;
    for (const id of exactIds[i] ?? []) if (truth.has(id)) agree++;
  }
  return {
    label,
    writeMs,
    hnswBuildMs,
    exact: latency(exact),
    approx: latency(approx),
    brute: latency(brute),
    recallAt10: possible > 0 ? found / possible : Number.NaN,
    exactAgreesWithBrute: compared > 0 ? agree / compared : Number.NaN,
  };
}

async function hybridPart(ctx: BenchContext) {
  const corpus = createCorpus({ chunks: 10_000 });
  const embedder = createHashingEmbedder({ dimensions: DIMS });
  ctx.progress("search-vector: 10k-chunk corpus with hashing-embedder vectors");
  const store = await buildStore({
    corpus,
    path: join(ctx.scratch, "hybrid-10k.db"),
    progress: ctx.progress,
    embed: async (batch) => {
      const chunks = batch.flatMap((w) => w.chunks);
      const vectors = await embedder.embed(chunks.map((c) => c.text));
      chunks.forEach((c, i) => {
        c.embedding = vectors[i];
      });
    },
  });
  await store.setEmbedderInfo("default", { id: embedder.id, dimensions: DIMS });
  const retriever = createRetriever({ store, embedder });
  const queries = corpus.keywordQueries(QUERIES + 10);
  const run = (mode: "hybrid" | "keyword") => (q: string) =>
    retriever.search(q, { principal: LOCAL_OWNER, k: K, mode });
  await timeEach(queries.slice(0, 10), run("hybrid"));
  ctx.progress("search-vector: hybrid queries");
  const hybrid = await timeEach(queries.slice(10), run("hybrid"), { budgetMs: BUDGET_MS });
  const keyword = await timeEach(queries.slice(10), run("keyword"), { budgetMs: BUDGET_MS });
  await store.close();
  return { hybrid: latency(hybrid), keyword: latency(keyword) };
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const count = ctx.quick ? 10_000 : 100_000;
  const v = await vectorPart(ctx, count);
  const h = await hybridPart(ctx);
  const big = count >= 100_000;
  const rows: ResultRow[] = [
    {
      metric: `exact kNN p50 @${v.label}`,
      unit: "ms",
      ferret: v.exact.p50,
      baseline: v.brute.p50,
      baselineName: "JS brute force",
      better: "lower",
      target: big ? { op: "<=", value: 80 } : undefined,
    },
    {
      metric: `HNSW kNN p50 @${v.label}`,
      unit: "ms",
      ferret: v.approx.p50,
      baseline: v.brute.p50,
      baselineName: "JS brute force",
      better: "lower",
      target: big ? { op: "<=", value: 2 } : undefined,
    },
    {
      metric: `HNSW recall@10 vs exact @${v.label}`,
      unit: "fraction",
      ferret: v.recallAt10,
      better: "higher",
      target: { op: ">=", value: 0.98 },
    },
    { metric: `HNSW build (first query) @${v.label}`, unit: "ms", ferret: v.hnswBuildMs, better: "lower" },
    {
      metric: "hybrid (RRF) p50 @10k",
      unit: "ms",
      ferret: h.hybrid.p50,
      baseline: h.keyword.p50,
      baselineName: "keyword only",
      better: "lower",
    },
    {
      metric: "hybrid (RRF) p95 @10k",
      unit: "ms",
      ferret: h.hybrid.p95,
      baseline: h.keyword.p95,
      baselineName: "keyword only",
      better: "lower",
    },
  ];
  const notes = [
    `${count.toLocaleString("en-US")} unit vectors, ${DIMS}-d, ${CLUSTERS} Gaussian clusters (noise norm ${SPREAD}), seed ${VECTOR_SEED}; ${QUERIES} query vectors from the same distribution; k=${K}`,
    `store.vectorSearch({ strategy }) on a SQLite file; vectors written in ${(v.writeMs / 1000).toFixed(1)}s; sqlite-vec exact agrees with the JS scan on ${(v.exactAgreesWithBrute * 100).toFixed(1)}% of top-10 ids`,
    "hybrid: createRetriever({ store, embedder: hashing 384-d }) mode 'hybrid' vs 'keyword' on the same 10k-chunk store",
  ];
  for (const [name, l] of [
    ["exact", v.exact],
    ["approximate", v.approx],
    ["JS scan", v.brute],
    ["hybrid", h.hybrid],
  ] as const) {
    if (l.n < QUERIES) notes.push(`${name}: stopped after ${l.n} queries (${BUDGET_MS / 1000}s budget)`);
  }
  return { name: "search-vector", rows, notes, extra: { vectors: v, hybrid: h } };
}

export const searchVectorBenchmark: Benchmark = {
  name: "search-vector",
  description: "exact (sqlite-vec) and HNSW (usearch) kNN over 384-d vectors vs a JS scan; hybrid at 10k",
  run,
};
