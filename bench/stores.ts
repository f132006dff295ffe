/**
 * stores: the SQLite store vs the PostgreSQL store on the same synthetic corpus (bench/corpus.ts), through the
 * store interface. PostgreSQL runs twice: PGlite over its socket server (pgvector and pg_textsearch: keyword,
 * vector and hybrid), and, where initdb and pg_ctl are on PATH, a throw-away PostgreSQL cluster (keyword only
 * when pgvector is not installed there, as on the PostgreSQL 15 of the test machines; the notes say so). Each store measures: ingest chunks/s with 1 writer (first
 * half of the corpus) and 4 concurrent writers (second half); BM25 p50/p95 of store.keywordSearch; kNN p50/p95
 * (HNSW, `approximate`) and its recall@10 against an exact scan in JS, on the hashing vectors and again, in a
 * second store, on model-like vectors (bench/vectors.ts MODEL_LIKE); kNN p50/p95 with `auto` (the retriever's
 * strategy: the store picks its exact scan or its index); hybrid p50 through the retriever; each
 * search with 1 client and with 4 concurrent clients. The baseline of every PostgreSQL row is the SQLite
 * store's figure from the same run (ratio PostgreSQL/SQLite), so no figure is compared with a fixed time.
 *
 * Scale: FERRET_BENCH_STORES_CHUNKS (default 100,000; 10,000 with --quick). Vectors come from the hashing
 * embedder (FERRET_BENCH_STORES_DIMS, default 128) so the kNN queries are the keyword queries' embeddings.
 * FERRET_BENCH_STORES_POSTGRES picks the PostgreSQL servers (comma-separated `pglite`, `pg-cluster`; default
 * both): PGlite ingests one statement at a time in WebAssembly, so a large run may measure the cluster alone
 * and PGlite at a smaller scale, or PGlite for kNN alone with its rows loaded in bulk
 * (FERRET_BENCH_STORES_PGLITE_LOAD=bulk, see pgliteBulk).
 */
import { cpus } from "node:os";
import { join } from "node:path";
import driver from "pg";
import { createHashingEmbedder } from "../src/embedders/hashing.js";
import { createRetriever } from "../src/retrieval/search.js";
import type { DocumentWrite } from "../src/spec/document.js";
import { LOCAL_OWNER } from "../src/spec/principal.js";
import type { StoreV1 } from "../src/spec/store.js";
import { createPostgresStore } from "../src/stores/postgres/index.js";
import { clusterAvailable, startCluster, startPglite, type TestServer } from "../src/stores/postgres/test-servers.js";
import { createSqliteStore } from "../src/stores/sqlite/index.js";
import { queryTerms } from "../src/text/tokenize.js";
import { type Corpus, createCorpus } from "./corpus.js";
import { BATCH_DOCUMENTS, scaleLabel } from "./fixtures.js";
import { latency, now } from "./measure.js";
import { bulkLoadVectors } from "./pg-bulk.js";
import type { BenchContext, Benchmark, BenchResult, ResultRow } from "./report.js";
import { bruteForceTopK, clusteredVectors, MODEL_LIKE } from "./vectors.js";

const K = 10;
const QUERIES = 100;
const WARMUP = 10;
/** Per store and measure: a pathological slowdown stops sampling here rather than stalling the run. */
const BUDGET_MS = 60_000;
const BATCH = BATCH_DOCUMENTS / 4;

interface StoreFigures {
  name: string;
  /** The server and its pgvector as read from it (`serverLabel`), for PostgreSQL stores. */
  server?: string;
  ingest1: number;
  ingest4: number;
  /** Absent where the rows were loaded in bulk for kNN alone. */
  keyword?: { c1: Lat; c4: Lat };
  knn?: { c1: Lat; c4: Lat; recall: number };
  /** kNN (HNSW) and recall on model-like vectors (MODEL_LIKE), in a second store. */
  knnModel?: { c1: Lat; c4: Lat; recall: number };
  /** store.vectorSearch with strategy `auto` (the retriever's): the store picks exact or its index. */
  knnAuto?: { c1: Lat; c4: Lat };
  hybrid?: { c1: Lat; c4: Lat };
  notes: string[];
}
type Lat = ReturnType<typeof latency>;

function scale(ctx: BenchContext): number {
  const env = process.env.FERRET_BENCH_STORES_CHUNKS;
  if (env !== undefined && env !== "") {
    const n = Number(env);
    if (!Number.isInteger(n) || n < 100 || n > 10_000_000)
      throw new RangeError(`FERRET_BENCH_STORES_CHUNKS must be an integer from 100 to 10000000, got ${env}`);
    return n;
  }
  return ctx.quick ? 10_000 : 100_000;
}

function dimensions(): number {
  const n = Number(process.env.FERRET_BENCH_STORES_DIMS ?? 128);
  if (!Number.isInteger(n) || n < 8 || n > 2000)
    throw new RangeError("FERRET_BENCH_STORES_DIMS must be an integer from 8 to 2000");
  return n;
}

/**
 * Runs `fn` over the inputs with `clients` concurrent loops, each taking the next input; returns each call's
 * milliseconds. Stops taking new inputs once the budget is spent.
 */
async function timeConcurrent<T>(inputs: readonly T[], clients: number, fn: (input: T) => Promise<unknown>) {
  const samples: number[] = [];
  let next = 0;
  const started = now();
  const loop = async () => {
    while (next < inputs.length && now() - started < BUDGET_MS) {
      const input = inputs[next++] as T;
      const t0 = now();
      await fn(input);
      samples.push(now() - t0);
    }
  };
  await Promise.all(Array.from({ length: clients }, loop));
  return latency(samples);
}

/** Busy and total milliseconds of every core of the machine so far. */
function machineTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    const all = times.user + times.nice + times.sys + times.idle + times.irq;
    busy += all - times.idle;
    total += all;
  }
  return { busy, total };
}

/** Chunks per second of an ingest, and how many of the machine's cores were busy on average meanwhile. */
interface IngestFigure {
  rate: number;
  busyCores: number;
}

/**
 * Writes batches with `workers` concurrent writers. The cores busy (the whole machine: this process and the
 * server's) bound what more writers can gain: with one writer keeping b of n cores busy, n/b is the most.
 */
async function ingest(store: StoreV1, batches: DocumentWrite[][], workers: number): Promise<IngestFigure> {
  let next = 0;
  let chunks = 0;
  const t0 = now();
  const m0 = machineTimes();
  const loop = async () => {
    while (next < batches.length) {
      const batch = batches[next++] as DocumentWrite[];
      await store.writeDocuments(batch);
      chunks += batch.reduce((n, w) => n + w.chunks.length, 0);
    }
  };
  await Promise.all(Array.from({ length: workers }, loop));
  const m1 = machineTimes();
  const cores = cpus().length;
  return {
    rate: chunks / ((now() - t0) / 1000),
    busyCores: m1.total > m0.total ? (cores * (m1.busy - m0.busy)) / (m1.total - m0.total) : Number.NaN,
  };
}

export interface Workload {
  corpus: Corpus;
  batches: DocumentWrite[][];
  dims: number;
  /** Every chunk's vector in corpus order, and its id. */
  matrix: Float32Array;
  ids: string[];
  queries: string[];
  queryVectors: Float32Array[];
  /** Exact top-10 chunk ids per query vector. */
  truth: string[][];
  /** The same chunks with model-like vectors (MODEL_LIKE), for the second kNN measure. */
  model: ModelVectors;
}

/** Model-like vectors for every chunk (corpus order), query vectors from the same topics, their exact top 10. */
export interface ModelVectors {
  dims: number;
  matrix: Float32Array;
  queryVectors: Float32Array[];
  truth: string[][];
}

function modelVectors(ids: string[]): ModelVectors {
  const { dims, clusters, spread, seed } = MODEL_LIKE;
  const data = clusteredVectors({ dims, clusters, spread, seed, stream: 1 });
  const matrix = new Float32Array(ids.length * dims);
  for (let i = 0; i < ids.length; i++) matrix.set(data.next(), i * dims);
  const queries = clusteredVectors({ dims, clusters, spread, seed, stream: 2 });
  const queryVectors = Array.from({ length: QUERIES + WARMUP }, () => queries.next());
  const truth = queryVectors.map((q) => bruteForceTopK(matrix, dims, q, K).map((i) => ids[i] as string));
  return { dims, matrix, queryVectors, truth };
}

async function workload(ctx: BenchContext, chunks: number): Promise<Workload> {
  const dims = dimensions();
  const corpus = createCorpus({ chunks });
  const embedder = createHashingEmbedder({ dimensions: dims });
  ctx.progress(`stores: generating ${chunks.toLocaleString("en-US")} chunks with ${dims}-d hashing vectors`);
  const batches: DocumentWrite[][] = [];
  const matrix = new Float32Array(corpus.chunkCount * dims);
  const ids: string[] = [];
  for (const batch of corpus.batches(BATCH)) {
    for (const write of batch) {
      const vectors = await embedder.embed(write.chunks.map((c) => c.text));
      write.chunks.forEach((chunk, i) => {
        const v = vectors[i] as Float32Array;
        chunk.embedding = v;
        matrix.set(v, ids.length * dims);
        ids.push(chunk.id);
      });
    }
    batches.push(batch);
  }
  const queries = corpus.keywordQueries(QUERIES + WARMUP);
  const queryVectors = await embedder.embed(queries);
  const truth = queryVectors.map((q) => bruteForceTopK(matrix, dims, q, K).map((i) => ids[i] as string));
  ctx.progress(
    `stores: ${chunks.toLocaleString("en-US")} model-like ${MODEL_LIKE.dims}-d vectors and their exact top ${K}`,
  );
  const model = modelVectors(ids);
  return { corpus, batches, dims, matrix, ids, queries, queryVectors, truth, model };
}

/** The corpus's source record, which every store of the bench gets before its chunks. */
function putCorpusSource(store: StoreV1, w: Workload): Promise<void> {
  return store.putSource({
    name: w.corpus.source,
    tenant: w.corpus.tenant,
    kind: "documents",
    description: "Synthetic engineering reports.",
    acl: [],
  });
}

/**
 * kNN through the HNSW index (`approximate`) with 1 and 4 clients, and recall@K against `truth` (the exact top K
 * of each query vector); the first WARMUP vectors warm up.
 */
async function measureKnn(
  store: StoreV1,
  queryVectors: Float32Array[],
  truth: string[][],
): Promise<{ c1: Lat; c4: Lat; recall: number }> {
  const vecs = queryVectors.slice(WARMUP).map((v, i) => ({ v, truth: truth[i + WARMUP] as string[] }));
  const knn = (q: { v: Float32Array }) =>
    store.vectorSearch({ principal: LOCAL_OWNER, k: K, vector: q.v, strategy: "approximate" });
  for (const v of queryVectors.slice(0, WARMUP)) await knn({ v });
  let found = 0;
  let wanted = 0;
  for (const q of vecs) {
    const got = new Set((await knn(q)).map((h) => h.id));
    found += q.truth.filter((id) => got.has(id)).length;
    wanted += q.truth.length;
  }
  return {
    c1: await timeConcurrent(vecs, 1, knn),
    c4: await timeConcurrent(vecs, 4, knn),
    recall: wanted > 0 ? found / wanted : Number.NaN,
  };
}

/**
 * kNN on model-like vectors (MODEL_LIKE) in a second, empty store: `load` writes every chunk of the corpus with
 * its model-like vector (through the store, or in bulk); then as `measureKnn`.
 */
async function measureModelKnn(
  ctx: BenchContext,
  name: string,
  store: StoreV1,
  w: Workload,
  load: (batches: DocumentWrite[][]) => Promise<void>,
): Promise<{ c1: Lat; c4: Lat; recall: number }> {
  const { dims, matrix } = w.model;
  ctx.progress(`stores/${name}: loading ${w.ids.length.toLocaleString("en-US")} model-like ${dims}-d vectors`);
  await putCorpusSource(store, w);
  let at = 0;
  const batches = w.batches.map((batch) =>
    batch.map((write) => ({
      ...write,
      chunks: write.chunks.map((chunk) => ({ ...chunk, embedding: matrix.subarray(at * dims, ++at * dims) })),
    })),
  );
  await load(batches);
  await store.setEmbedderInfo(w.corpus.tenant, { id: "bench:model-like", dimensions: dims });
  ctx.progress(`stores/${name}: kNN on model-like vectors and recall@${K}`);
  return measureKnn(store, w.model.queryVectors, w.model.truth);
}

async function measureStore(
  ctx: BenchContext,
  name: string,
  store: StoreV1,
  w: Workload,
  options: { vectors: boolean; bulk?: () => Promise<string> },
): Promise<StoreFigures> {
  const notes: string[] = [];
  await putCorpusSource(store, w);
  const embedder = createHashingEmbedder({ dimensions: w.dims });
  const warm = w.queries.slice(0, WARMUP);
  const qs = w.queries.slice(WARMUP);
  let figures: StoreFigures;
  if (options.bulk) {
    ctx.progress(`stores/${name}: bulk load of the vectors (kNN only)`);
    notes.push(await options.bulk());
    figures = { name, ingest1: Number.NaN, ingest4: Number.NaN, notes };
  } else {
    const batches = options.vectors
      ? w.batches
      : w.batches.map((b) => b.map((write) => ({ ...write, chunks: write.chunks.map(({ embedding: _, ...c }) => c) })));
    const half = Math.floor(batches.length / 2);
    ctx.progress(`stores/${name}: ingest, 1 writer (${half} batches)`);
    const one = await ingest(store, batches.slice(0, half), 1);
    ctx.progress(`stores/${name}: ingest, 4 writers (${batches.length - half} batches)`);
    const four = await ingest(store, batches.slice(half), 4);
    const ingest1 = one.rate;
    const ingest4 = four.rate;
    const cores = cpus().length;
    notes.push(
      `${name}: ingest kept ${one.busyCores.toFixed(2)} of ${cores} cores busy with 1 writer, ${four.busyCores.toFixed(2)} with 4: so 4w/1w could reach at most ${(cores / one.busyCores).toFixed(2)} here`,
    );
    const keyword = (q: string) => store.keywordSearch({ principal: LOCAL_OWNER, k: K, terms: queryTerms(q) });
    ctx.progress(`stores/${name}: keyword search`);
    for (const q of warm) await keyword(q);
    const kw = { c1: await timeConcurrent(qs, 1, keyword), c4: await timeConcurrent(qs, 4, keyword) };
    figures = { name, ingest1, ingest4, keyword: kw, notes };
  }
  if (options.vectors) await store.setEmbedderInfo(w.corpus.tenant, { id: embedder.id, dimensions: w.dims });
  if (!options.vectors) return figures;

  ctx.progress(`stores/${name}: kNN and recall@${K}`);
  figures.knn = await measureKnn(store, w.queryVectors, w.truth);
  const vecs = w.queryVectors.slice(WARMUP).map((v) => ({ v }));
  ctx.progress(`stores/${name}: kNN with strategy auto`);
  const auto = (q: { v: Float32Array }) =>
    store.vectorSearch({ principal: LOCAL_OWNER, k: K, vector: q.v, strategy: "auto" });
  for (const v of w.queryVectors.slice(0, WARMUP)) await auto({ v });
  figures.knnAuto = { c1: await timeConcurrent(vecs, 1, auto), c4: await timeConcurrent(vecs, 4, auto) };
  if (options.bulk) return figures;
  ctx.progress(`stores/${name}: hybrid retrieval`);
  const retriever = createRetriever({ store, embedder });
  const hybrid = (q: string) => retriever.search(q, { principal: LOCAL_OWNER, k: K, mode: "hybrid" });
  for (const q of warm) await hybrid(q);
  figures.hybrid = { c1: await timeConcurrent(qs, 1, hybrid), c4: await timeConcurrent(qs, 4, hybrid) };
  return figures;
}

/** A store's name in its rows: with the server and pgvector it ran on, where known. */
function rowName(figures: StoreFigures): string {
  return figures.server ? `${figures.name} (${figures.server})` : figures.name;
}

/**
 * The server at `url` and its pgvector, read from it: `PGlite 0.5.14 on PostgreSQL 18.6, pgvector 0.8.7` or
 * `PostgreSQL 15.20, no pgvector`.
 */
async function serverLabel(url: string): Promise<string> {
  const client = new driver.Client({ connectionString: url });
  await client.connect();
  try {
    const row = (
      await client.query<{ version: string; vector: string | null }>(
        "SELECT version() AS version, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS vector",
      )
    ).rows[0];
    const version = row?.version ?? "";
    const postgres = /^PostgreSQL (\S+)/.exec(version)?.[1] ?? "?";
    const pglite = /\(PGlite (\S+?)\)/.exec(version)?.[1];
    const server = pglite ? `PGlite ${pglite} on PostgreSQL ${postgres}` : `PostgreSQL ${postgres}`;
    return `${server}, ${row?.vector ? `pgvector ${row.vector}` : "no pgvector"}`;
  } finally {
    await client.end();
  }
}

function rowsFor(pg: StoreFigures, base: StoreFigures, label: string, big: boolean): ResultRow[] {
  const rows: ResultRow[] = [];
  const cmp = (metric: string, unit: string, a: number, b: number, better: "lower" | "higher", target?: number) =>
    rows.push({
      metric: `${rowName(pg)} ${metric} @${label}`,
      unit,
      ferret: a,
      baseline: b,
      baselineName: base.name,
      better,
      ...(target !== undefined ? { target: { op: better === "lower" ? "<=" : ">=", value: target } as const } : {}),
    });
  const ingested = !Number.isNaN(pg.ingest1);
  if (ingested) cmp("ingest 1 writer", "chunks/s", pg.ingest1, base.ingest1, "higher");
  if (ingested) cmp("ingest 4 writers", "chunks/s", pg.ingest4, base.ingest4, "higher");
  if (ingested)
    rows.push({
      metric: `${rowName(pg)} ingest 4w/1w @${label}`,
      unit: "x",
      ferret: pg.ingest4 / pg.ingest1,
      baseline: base.ingest4 / base.ingest1,
      baselineName: base.name,
      better: "higher",
      target: { op: ">=", value: 2 },
    });
  for (const [clients, key] of [
    [1, "c1"],
    [4, "c4"],
  ] as const) {
    const t = big && clients === 1 ? 10 : undefined;
    if (pg.keyword && base.keyword) {
      cmp(`BM25 p50 ${clients}c`, "ms", pg.keyword[key].p50, base.keyword[key].p50, "lower", t);
      cmp(`BM25 p95 ${clients}c`, "ms", pg.keyword[key].p95, base.keyword[key].p95, "lower");
    }
    if (pg.knn && base.knn) {
      cmp(`kNN p50 ${clients}c`, "ms", pg.knn[key].p50, base.knn[key].p50, "lower");
      cmp(`kNN p95 ${clients}c`, "ms", pg.knn[key].p95, base.knn[key].p95, "lower");
    }
    if (pg.knnModel && base.knnModel) {
      cmp(`kNN model-like p50 ${clients}c`, "ms", pg.knnModel[key].p50, base.knnModel[key].p50, "lower", t);
      cmp(`kNN model-like p95 ${clients}c`, "ms", pg.knnModel[key].p95, base.knnModel[key].p95, "lower");
    }
    if (pg.knnAuto && base.knnAuto) {
      cmp(`kNN auto p50 ${clients}c`, "ms", pg.knnAuto[key].p50, base.knnAuto[key].p50, "lower");
      cmp(`kNN auto p95 ${clients}c`, "ms", pg.knnAuto[key].p95, base.knnAuto[key].p95, "lower");
    }
    if (pg.hybrid && base.hybrid)
      cmp(`hybrid p50 ${clients}c`, "ms", pg.hybrid[key].p50, base.hybrid[key].p50, "lower");
  }
  if (pg.knn && base.knn) cmp("kNN recall@10", "recall", pg.knn.recall, base.knn.recall, "higher");
  if (pg.knnModel && base.knnModel)
    cmp("kNN model-like recall@10", "recall", pg.knnModel.recall, base.knnModel.recall, "higher");
  return rows;
}

/** Where each store wins: for every figure the two share, the better one by more than 10%. */
function wins(pg: StoreFigures, base: StoreFigures): string {
  const pairs: [string, number, number, "lower" | "higher"][] = [];
  if (!Number.isNaN(pg.ingest1))
    pairs.push(["ingest 1w", pg.ingest1, base.ingest1, "higher"], ["ingest 4w", pg.ingest4, base.ingest4, "higher"]);
  if (pg.keyword && base.keyword)
    pairs.push(
      ["BM25 1c", pg.keyword.c1.p50, base.keyword.c1.p50, "lower"],
      ["BM25 4c", pg.keyword.c4.p50, base.keyword.c4.p50, "lower"],
    );
  if (pg.knn && base.knn) {
    pairs.push(
      ["kNN 1c", pg.knn.c1.p50, base.knn.c1.p50, "lower"],
      ["kNN 4c", pg.knn.c4.p50, base.knn.c4.p50, "lower"],
    );
    pairs.push(["recall", pg.knn.recall, base.knn.recall, "higher"]);
  }
  if (pg.knnModel && base.knnModel)
    pairs.push(
      ["kNN model-like 1c", pg.knnModel.c1.p50, base.knnModel.c1.p50, "lower"],
      ["model-like recall", pg.knnModel.recall, base.knnModel.recall, "higher"],
    );
  if (pg.hybrid && base.hybrid) pairs.push(["hybrid 1c", pg.hybrid.c1.p50, base.hybrid.c1.p50, "lower"]);
  const pgWins: string[] = [];
  const baseWins: string[] = [];
  for (const [what, a, b, better] of pairs) {
    const r = a / b;
    if (better === "lower" ? r < 0.9 : r > 1.1) pgWins.push(what);
    else if (better === "lower" ? r > 1.1 : r < 0.9) baseWins.push(what);
  }
  return `${pg.name} wins: ${pgWins.join(", ") || "nothing"}; ${base.name} wins: ${baseWins.join(", ") || "nothing"}`;
}

async function withServer<T>(start: () => Promise<TestServer>, fn: (server: TestServer) => Promise<T>): Promise<T> {
  const server = await start();
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}

/**
 * Server parameters of the throw-away cluster, as a server sized for the data would have them: PostgreSQL's
 * default shared_buffers (128 MB) holds a fraction of a 100k-chunk store (chunks, postings and the HNSW index
 * pass 1.5 GB), so each search read pages through the kernel while SQLite's pages stay mapped. 2 GB is below the
 * usual starting point of a quarter of the machine's memory. FERRET_BENCH_STORES_PG_SHARED_BUFFERS sets another
 * (`128MB` for the default).
 */
export function clusterSettings(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return { shared_buffers: env.FERRET_BENCH_STORES_PG_SHARED_BUFFERS || "2GB" };
}

/**
 * The model-like kNN measure on a PostgreSQL server: a second database, its chunks and vectors loaded in bulk
 * (bench/pg-bulk.ts: the index is built once after the load; ingest is measured on the first store).
 */
async function modelKnnOnPostgres(ctx: BenchContext, name: string, server: TestServer, w: Workload) {
  const url = await server.database();
  const store = await createPostgresStore({ url, poolSize: 8 });
  try {
    return await measureModelKnn(ctx, name, store, w, async (batches) => {
      await bulkLoadVectors(url, { ...w, batches, dims: w.model.dims, matrix: w.model.matrix });
    });
  } finally {
    await store.close();
  }
}

const SERVERS = ["pglite", "pg-cluster"] as const;

function servers(): Set<string> {
  const env = process.env.FERRET_BENCH_STORES_POSTGRES;
  if (env === undefined || env.trim() === "") return new Set(SERVERS);
  const names = env.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !(SERVERS as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new RangeError(`FERRET_BENCH_STORES_POSTGRES names ${SERVERS.join(" and ")}, got ${unknown.join(", ")}`);
  return new Set(names);
}

/**
 * FERRET_BENCH_STORES_PGLITE_LOAD=bulk: PGlite gets the chunks and vectors by SQL in bulk (bench/pg-bulk.ts) and
 * is measured for kNN and recall only, so a 100k run takes minutes where ingest through the store takes hours.
 */
function pgliteBulk(): boolean {
  const env = process.env.FERRET_BENCH_STORES_PGLITE_LOAD ?? "store";
  if (env !== "store" && env !== "bulk")
    throw new RangeError(`FERRET_BENCH_STORES_PGLITE_LOAD is store or bulk, got ${env}`);
  return env === "bulk";
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const chosen = servers();
  const chunks = scale(ctx);
  const label = scaleLabel(chunks);
  const w = await workload(ctx, chunks);
  const sqlite = await createSqliteStore({ path: join(ctx.scratch, "stores.db") });
  const base = await measureStore(ctx, "sqlite", sqlite, w, { vectors: true }).finally(() => sqlite.close());
  const sqliteModel = await createSqliteStore({ path: join(ctx.scratch, "stores-model.db") });
  base.knnModel = await measureModelKnn(ctx, "sqlite", sqliteModel, w, async (batches) => {
    for (const batch of batches) await sqliteModel.writeDocuments(batch);
  }).finally(() => sqliteModel.close());
  const measured: StoreFigures[] = [];
  const warnings: string[] = [];
  const postgres = async (name: string, server: TestServer) => {
    const url = await server.database();
    const store = await createPostgresStore({ url, poolSize: 8, onWarning: (m) => warnings.push(`${name}: ${m}`) });
    try {
      // Without pgvector there is no HNSW index to measure: such a server is measured on keywords only.
      const vectors = !store.missing.some((m) => m.feature === "vector index");
      const bulk =
        name === "pglite" && vectors && pgliteBulk()
          ? async () => {
              const t = await bulkLoadVectors(url, w);
              return `pglite: KNN ONLY, ${w.ids.length.toLocaleString("en-US")} chunks and vectors loaded by SQL in bulk (FERRET_BENCH_STORES_PGLITE_LOAD=bulk: triggers off, no keyword index) in ${t.load.toFixed(0)} s, HNSW index built after in ${t.index.toFixed(0)} s`;
            }
          : undefined;
      const figures = await measureStore(ctx, name, store, w, { vectors, bulk });
      figures.server = await serverLabel(url);
      if (vectors) figures.knnModel = await modelKnnOnPostgres(ctx, name, server, w);
      figures.notes.push(
        `${name}: keyword search ranks with bm25 (pg_textsearch index ${store.textsearchIndex ? "built" : "not built"}), matching ${store.indexedKeywordMatch ? "through the leakproof GIN index" : "without an index (built-in @@ under row-level security)"}`,
        vectors
          ? `${name}: pgvector installed, kNN through its HNSW index`
          : `${name}: KEYWORD ONLY, pgvector is not installed on this server: no kNN, recall or hybrid rows`,
      );
      return figures;
    } finally {
      await store.close();
    }
  };
  if (chosen.has("pglite")) {
    ctx.progress("stores: starting PGlite (socket server)");
    measured.push(await withServer(startPglite, (server) => postgres("pglite", server)));
  }
  if (chosen.has("pg-cluster") && clusterAvailable()) {
    ctx.progress("stores: starting a PostgreSQL cluster (initdb)");
    const settings = clusterSettings();
    const figures = await withServer(
      () => startCluster(settings),
      (server) => postgres("pg-cluster", server),
    );
    figures.notes.push(
      `pg-cluster: started with ${Object.entries(settings)
        .map(([k, v]) => `${k}=${v}`)
        .join(", ")} (fsync off, as every throw-away cluster of the tests)`,
    );
    measured.push(figures);
  }
  const rows = measured.flatMap((m) => rowsFor(m, base, label, chunks >= 100_000));
  const notes = [
    `${w.corpus.chunkCount.toLocaleString("en-US")} chunks (${w.corpus.documentCount.toLocaleString("en-US")} documents) from bench/corpus.ts, ${w.dims}-d hashing-embedder vectors; ${QUERIES} queries after ${WARMUP} warm-up, k=${K}`,
    "baseline: the SQLite store in the same run; ratio = PostgreSQL / SQLite (latency: lower is better; chunks/s and recall: higher)",
    "ingest: first half of the batches with 1 writer, second half with 4 concurrent writers (the index is larger then)",
    `kNN model-like: a second store of the same chunks with ${MODEL_LIKE.dims}-d vectors shaped like a sentence model's (bench/vectors.ts MODEL_LIKE: ${MODEL_LIKE.clusters} topics, queries from the same topics), written through the SQLite store and loaded in bulk into PostgreSQL (pg-bulk.ts); the kNN target (p50 <= 10 ms at 100k) is checked there. The hashing embedder's 3-word queries have 3 to 6 non-zero components of ${w.dims}: graph indexes search long for them and find part of the exact top 10 (the kNN rows)`,
    "BM25: store.keywordSearch; kNN: store.vectorSearch strategy 'approximate' (HNSW), recall@10 against an exact JS scan; kNN auto: strategy 'auto' (the retriever's: each store picks its exact scan or its index by the tenant's vector count); hybrid: retriever mode 'hybrid'",
    "4c: four concurrent clients, each latency sample is one call",
    ...measured.map((m) => wins(m, base)),
    ...measured.flatMap((m) => m.notes),
    ...warnings,
  ];
  return {
    name: "stores",
    rows,
    notes,
    extra: { sqlite: base, ...Object.fromEntries(measured.map((m) => [m.name, m])) },
  };
}

export const storesBenchmark: Benchmark = {
  name: "stores",
  description: "SQLite vs PostgreSQL (PGlite, PostgreSQL cluster): ingest, BM25, kNN, hybrid, 1 and 4 clients",
  run,
};
