import type pg from "pg";
import type { KeywordQuery, ScoredChunk, ScoredDocument, VectorQuery } from "../../spec/store.js";
import { SCORED_COLUMNS, type ScoredRow, toScoredChunk } from "../scored-row.js";
import { mismatch } from "../sqlite/vectors.js";
import { bm25Ranking, rankTerms, termLexemes } from "./bm25.js";
import { Params } from "./db.js";
import { getEmbedderInfo } from "./documents.js";
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
  /** pgvector is installed (HNSW and its distance operator). */
  vector: boolean;
  /** `auto` uses the HNSW index at this many vectors in a tenant. */
  hnswThreshold: number;
  /** Candidates an HNSW search keeps (`hnsw.ef_search`); at least 2k are kept. Default DEFAULT_EF_SEARCH. */
  efSearch?: number;
}

/** The `hnsw.ef_search` of a search for k neighbours: the store's setting, at least 2k, at most pgvector's bound. */
export function efSearchFor(k: number, efSearch = DEFAULT_EF_SEARCH): number {
  return Math.min(MAX_EF_SEARCH, Math.max(efSearch, 2 * k));
}

/** Cosine kNN over the chunks the principal may read; score and raw are the cosine similarity. */
export async function vectorSearch(
  client: pg.ClientBase,
  query: VectorQuery,
  options: VectorOptions,
): Promise<ScoredChunk[]> {
  const k = Math.min(Math.floor(query.k), 4096);
  if (k <= 0) return [];
  const dims = query.vector.length;
  const tenant = query.principal.tenant;
  const strategy = query.strategy ?? "auto";
  const indexable = options.vector && dims <= 2000;
  // One round trip before the search: the tenant's stored dimension, its vector count when `auto` must choose,
  // and, where the HNSW index may be used, its settings for the rest of the transaction (iterative scans keep
  // going past candidates the filter drops until k pass). A search that then goes exact ignores them.
  const pre = new Params();
  const owner = pre.add(tenant);
  const count =
    indexable && strategy === "auto"
      ? `(SELECT count(*) FROM chunks WHERE tenant = ${owner} AND dims = ${pre.add(dims)})`
      : "NULL::bigint";
  const settings =
    indexable && strategy !== "exact"
      ? `, set_config('hnsw.iterative_scan', 'strict_order', true), set_config('hnsw.ef_search', ${pre.add(String(efSearchFor(k, options.efSearch)))}, true)`
      : "";
  const prelude = await client.query<{ dims: number | null; n: number | null }>(
    `SELECT (SELECT dims FROM chunks WHERE tenant = ${owner} AND dims IS NOT NULL LIMIT 1) AS dims, ${count} AS n${settings}`,
    pre.values,
  );
  const held = prelude.rows[0]?.dims ?? undefined;
  if (held === undefined) return [];
  if (held !== dims) {
    const info = await getEmbedderInfo(client, tenant);
    throw mismatch({
      tenant,
      expected: { id: info?.id, dimensions: held },
      got: { dimensions: dims },
      where: "the query vector comes",
    });
  }
  const approximate =
    indexable &&
    (strategy === "approximate" || (strategy === "auto" && (prelude.rows[0]?.n ?? 0) >= options.hnswThreshold));
  const p = new Params();
  const values = Array.from(query.vector, (v) => (Number.isFinite(v) ? v : 0)).join(",");
  const vector = p.add(options.vector ? `[${values}]` : `{${values}}`);
  const filter = chunkFilter(p, query);
  let distance: string;
  if (!options.vector) {
    distance = `ferret.cosine_distance(c.embedding, ${vector}::real[])`;
  } else if (approximate) {
    // The expression of the partial HNSW index, so the planner can use it (its settings were set above).
    distance = `(c.embedding::vector(${dims}) <=> ${vector}::vector(${dims}))`;
  } else {
    distance = `(c.embedding::vector <=> ${vector}::vector)`;
  }
  // Approximate: the inner query orders by the index expression alone, so the HNSW index scan yields the
  // top k (a tie-break column would make the planner sort every row); ties are broken on the k it returns.
  const sql = approximate
    ? `SELECT ${SCORED_COLUMNS}, top.distance
       FROM (SELECT c.rowid, ${distance} AS distance FROM chunks AS c
             WHERE c.dims = ${p.add(dims)} AND ${filter}
             ORDER BY ${distance} LIMIT ${p.add(k)}) AS top
       JOIN chunks AS c ON c.rowid = top.rowid ${JOIN_DOCUMENT}
       ORDER BY top.distance, c.rowid`
    : `SELECT ${SCORED_COLUMNS}, ${distance} AS distance
       FROM chunks AS c ${JOIN_DOCUMENT}
       WHERE c.dims = ${p.add(dims)} AND ${filter}
       ORDER BY ${distance}, c.rowid
       LIMIT ${p.add(k)}`;
  const rows = (await client.query<ScoredRow & { distance: number }>(sql, p.values)).rows;
  return rows.map((row) => toScoredChunk(row, 1 - row.distance));
}
