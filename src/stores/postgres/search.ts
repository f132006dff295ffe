import type pg from "pg";
import type { KeywordQuery, ScoredChunk, ScoredDocument, VectorQuery } from "../../spec/store.js";
import { SCORED_COLUMNS, type ScoredRow, toScoredChunk } from "../scored-row.js";
import { mismatch } from "../sqlite/vectors.js";
import { bm25Ranking, rankTerms, termLexemes } from "./bm25.js";
import { Literals, Params, type PgDb, principalScope } from "./db.js";
import { type EmbedderInfo, metaKey } from "./documents.js";
import { chunkFilter, queryFilter, readableFilter } from "./filters.js";
import { type TextMatch, TS_CONFIG } from "./schema.js";

/** The document row of a chunk `c`, as `d` (its title is among the scored columns). */
export const JOIN_DOCUMENT = "JOIN documents AS d ON d.tenant = c.tenant AND d.id = c.doc_id AND d.source = c.source";

/**
 * A tsquery text that ORs the terms, each a quoted phrase of its words (so nothing in a term is read as query
 * syntax); `to_tsquery` then stems each with the store's configuration. Undefined when no term has a word.
 */
export function tsqueryText(terms: string[]): string | undefined {
  const ranked = rankTerms(terms);
  return ranked.length > 0 ? ranked.map((t) => t.tsquery).join(" | ") : undefined;
}

/**
 * Keyword ranking over the chunks the principal may read: the SQLite store's bm25 (FTS5's formula and column
 * weights, see bm25.ts) over every match, ties broken by rowid as there. Matching is the tsvector's (stemmed,
 * any term, the GIN index finds them); `raw` > 0, higher is better. pg_textsearch's index (where it exists)
 * is not used for the ranking: its BM25 reads one column with its own statistics, so its top k is not
 * SQLite's.
 */
export async function keywordSearch(
  client: pg.ClientBase,
  query: KeywordQuery,
  options: { bm25: boolean; match?: TextMatch } = { bm25: false },
): Promise<ScoredChunk[]> {
  const terms = rankTerms(query.terms);
  const k = Math.floor(query.k);
  if (terms.length === 0 || k <= 0) return [];
  const lexemes = await termLexemes(client, terms, TS_CONFIG);
  const p = new Params();
  const ranking = bm25Ranking({
    p,
    table: "chunks",
    alias: "c",
    tsv: "tsv",
    config: TS_CONFIG,
    terms,
    lexemes,
    readable: (alias) => readableFilter(p, query.principal, alias),
    narrow: queryFilter(p, query, "c"),
    select: { rowid: "c.rowid" },
    tieBreak: "m.rowid",
    k,
    match: options.match,
  });
  // The top k are ranked on the chunks alone and only they are joined to their documents: the join (and the
  // documents' row-level-security checks) on every match took 30 of a search's 31 ms at 5k chunks. A chunk
  // the filters pass always has a document they pass (same tenant, source and ACL).
  const rows = (
    await client.query<ScoredRow & { raw: number }>(
      `WITH hits AS MATERIALIZED (${ranking})
       SELECT ${SCORED_COLUMNS}, hits.raw
       FROM hits JOIN chunks AS c ON c.rowid = hits.rowid ${JOIN_DOCUMENT}
       ORDER BY hits.raw DESC, hits.rowid`,
      p.values,
    )
  ).rows;
  return rows.map((row) => toScoredChunk(row, row.raw));
}

/** Keyword ranking (the SQLite store's bm25) over title, headings and opening of the documents the principal may read. */
export async function documentSearch(
  client: pg.ClientBase,
  query: KeywordQuery,
  options: { match?: TextMatch } = {},
): Promise<ScoredDocument[]> {
  const terms = rankTerms(query.terms);
  if (terms.length === 0 || query.k <= 0) return [];
  const p = new Params();
  const filter = { principal: query.principal, sources: query.sources, since: query.since };
  const ranking = bm25Ranking({
    p,
    table: "documents",
    alias: "d",
    tsv: "doc_tsv",
    config: TS_CONFIG,
    terms,
    lexemes: await termLexemes(client, terms, TS_CONFIG),
    readable: (alias) => readableFilter(p, query.principal, alias),
    narrow: queryFilter(p, filter, "d", "id"),
    select: { id: "d.id", source: "d.source", title: "d.title", updated_at: "d.updated_at" },
    tieBreak: 'm.source COLLATE "C", m.id COLLATE "C"',
    k: query.k,
    match: options.match,
  });
  const rows = (
    await client.query<{ id: string; source: string; title: string; updated_at: string | null; raw: number }>(
      ranking,
      p.values,
    )
  ).rows;
  return rows.map((row) => ({
    docId: row.id,
    source: row.source,
    title: row.title,
    raw: row.raw,
    ...(row.updated_at !== null ? { updatedAt: row.updated_at } : {}),
  }));
}

/** pgvector's bounds of `hnsw.ef_search`. */
export const MAX_EF_SEARCH = 1000;
/** Candidates an HNSW search keeps unless the store is told otherwise (see PostgresStoreOptions.hnswEfSearch). */
export const DEFAULT_EF_SEARCH = 300;

export interface VectorOptions {
  /** pgvector is installed (its vector type and distance operator). */
  vector: boolean;
  /** Its HNSW index exists (pgvector 0.5.0 and later). */
  hnsw: boolean;
  /** `hnsw.iterative_scan` exists (pgvector 0.8.0 and later); setting it on an older pgvector is an error. */
  iterativeScan: boolean;
  /** `auto` uses the HNSW index at this many vectors in a tenant. */
  hnswThreshold: number;
  /** Candidates an HNSW search keeps (`hnsw.ef_search`); at least 2k are kept. Default DEFAULT_EF_SEARCH. */
  efSearch?: number;
}

/** The `hnsw.ef_search` of a search for k neighbours: the store's setting, at least 2k, at most pgvector's bound. */
export function efSearchFor(k: number, efSearch = DEFAULT_EF_SEARCH): number {
  return Math.min(MAX_EF_SEARCH, Math.max(efSearch, 2 * k));
}

/**
 * Cosine kNN over the chunks the principal may read; score and raw are the cosine similarity. One round trip:
 * the scope, the settings (see `vectorSql`) and the search go to the server as one simple query (one implicit
 * transaction), values written as literals. Only a search that finds nothing asks, in a second round trip,
 * for the tenant's stored dimension and embedder (no dimension: an empty tenant; another: the query's embedder
 * is not the tenant's). As four round trips (BEGIN, that dimension with the settings, the search, COMMIT), BEGIN took
 * 0.7 ms, the dimension 2.4 ms and COMMIT 0.6 ms of a 16 ms search on PGlite's socket server (10k chunks,
 * loaded machine).
 */
export async function vectorSearch(db: PgDb, query: VectorQuery, options: VectorOptions): Promise<ScoredChunk[]> {
  const k = Math.min(Math.floor(query.k), 4096);
  if (k <= 0) return [];
  const dims = query.vector.length;
  const tenant = query.principal.tenant;
  const scope = principalScope(query.principal);
  const results = await db.once("search vectors", scope, vectorSql(query, k, options));
  const rows = (results.at(-1)?.rows ?? []) as (ScoredRow & { distance: number })[];
  if (rows.length > 0) return rows.map((row) => toScoredChunk(row, 1 - row.distance));
  // The tenant's stored dimension and its recorded embedder, in one statement: the embedder is read with the
  // dimension (not after it, in a transaction of its own) so that the mismatch can name it.
  const p = new Literals();
  const [stored] = await db.once(
    "search vectors",
    scope,
    `SELECT (SELECT dims FROM chunks WHERE tenant = ${p.add(tenant)} AND dims IS NOT NULL LIMIT 1) AS dims,
       (SELECT value FROM meta WHERE key = ${p.add(metaKey.embedder(tenant))}) AS embedder`,
  );
  const row = stored?.rows[0] as { dims: number | null; embedder: string | null } | undefined;
  const storedDims = row?.dims ?? undefined;
  if (storedDims === undefined || storedDims === dims) return [];
  const info = typeof row?.embedder === "string" ? (JSON.parse(row.embedder) as EmbedderInfo) : undefined;
  throw mismatch({
    tenant,
    expected: { id: info?.id, dimensions: storedDims },
    got: { dimensions: dims },
    where: "the query vector comes",
  });
}

/**
 * The statements of a vector search for the top k (values as literals): its settings (JIT off; HNSW's where
 * the index may be used), then the search (the last statement).
 */
export function vectorSql(query: VectorQuery, k: number, options: VectorOptions): string {
  const dims = query.vector.length;
  const tenant = query.principal.tenant;
  const strategy = query.strategy ?? "auto";
  const indexable = options.vector && options.hnsw && dims <= 2000;
  const p = new Literals();
  // The settings hold for the rest of the (implicit) transaction. JIT is off, as for keyword search: the
  // planner's cost of the exact scan (in `auto`, of both branches) passes jit_above_cost, and compiling took
  // longer than the search ran. Where the index may be used: the candidates an HNSW scan keeps and, where
  // pgvector has them (0.8), iterative scans that go on past candidates the filters drop until k pass (a search
  // that goes exact ignores them).
  const hnsw =
    indexable && strategy !== "exact"
      ? `${options.iterativeScan ? ", set_config('hnsw.iterative_scan', 'strict_order', true)" : ""}, set_config('hnsw.ef_search', ${p.add(String(efSearchFor(k, options.efSearch)))}, true)`
      : "";
  const settings = `SELECT set_config('jit', 'off', true)${hnsw}; `;
  const values = Array.from(query.vector, (v) => (Number.isFinite(v) ? v : 0)).join(",");
  const vector = p.add(options.vector ? `[${values}]` : `{${values}}`);
  const filter = chunkFilter(p, query);
  const exactDistance = options.vector
    ? `(c.embedding::vector <=> ${vector}::vector)`
    : `ferret.cosine_distance(c.embedding, ${vector}::real[])`;
  const exact = `SELECT ${SCORED_COLUMNS}, ${exactDistance} AS distance
       FROM chunks AS c ${JOIN_DOCUMENT}
       WHERE c.dims = ${p.add(dims)} AND ${filter}
       ORDER BY ${exactDistance}, c.rowid
       LIMIT ${p.add(k)}`;
  // The expression of the partial HNSW index, so the planner can use it. The inner query orders by it alone,
  // so the HNSW index scan yields the top k (a tie-break column would make the planner sort every row); ties
  // are broken on the k it returns.
  const indexDistance = `(c.embedding::vector(${dims}) <=> ${vector}::vector(${dims}))`;
  const approximate = `SELECT ${SCORED_COLUMNS}, top.distance
       FROM (SELECT c.rowid, ${indexDistance} AS distance FROM chunks AS c
             WHERE c.dims = ${p.add(dims)} AND ${filter}
             ORDER BY ${indexDistance} LIMIT ${p.add(k)}) AS top
       JOIN chunks AS c ON c.rowid = top.rowid ${JOIN_DOCUMENT}
       ORDER BY top.distance, c.rowid`;
  let search: string;
  if (!indexable || strategy === "exact") search = exact;
  else if (strategy === "approximate") search = approximate;
  else {
    // auto: the index once the tenant holds hnswThreshold vectors of this dimension (counted up to there
    // only), else the exact scan. Each branch runs behind a one-time filter, so only the chosen one is executed.
    const threshold = p.add(options.hnswThreshold);
    search = `WITH big AS MATERIALIZED (
         SELECT count(*) >= ${threshold} AS yes
         FROM (SELECT 1 FROM chunks WHERE tenant = ${p.add(tenant)} AND dims = ${p.add(dims)} LIMIT ${threshold}) AS n)
       SELECT * FROM (${approximate}) AS a WHERE (SELECT yes FROM big)
       UNION ALL
       SELECT * FROM (${exact}) AS e WHERE NOT (SELECT yes FROM big)
       ORDER BY distance, rowid`;
  }
  return `${settings}${search}`;
}
