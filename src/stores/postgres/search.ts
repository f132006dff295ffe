import type pg from "pg";
import type { KeywordQuery, ScoredChunk, ScoredDocument, VectorQuery } from "../../spec/store.js";
import { SCORED_COLUMNS, type ScoredRow, toScoredChunk } from "../scored-row.js";
import { mismatch } from "../sqlite/vectors.js";
import { Params } from "./db.js";
import { foldText, getEmbedderInfo, storedDims } from "./documents.js";
import { chunkFilter } from "./filters.js";
import { BM25_INDEX, type TextMatch, TS_CONFIG } from "./schema.js";

/** The document row of a chunk `c`, as `d` (its title is among the scored columns). */
export const JOIN_DOCUMENT = "JOIN documents AS d ON d.tenant = c.tenant AND d.id = c.doc_id AND d.source = c.source";

/**
 * A tsquery text that ORs the terms, each a quoted lexeme (so nothing in a term is read as query syntax);
 * `to_tsquery` then stems each with the store's configuration. Undefined when no term has a letter or digit.
 */
export function tsqueryText(terms: string[]): string | undefined {
  const quoted = terms
    .map((term) => foldText(term).trim())
    .filter((term) => /[\p{L}\p{N}]/u.test(term))
    .map((term) => `'${term.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`);
  return quoted.length > 0 ? quoted.join(" | ") : undefined;
}

/**
 * ts_rank_cd weights {D, C, B, A} (each at most 1): body, section and title in the ratio 1 : 1.5 : 2 of the
 * SQLite store's bm25 weights.
 */
const CHUNK_WEIGHTS = "'{0.5, 0.1, 0.75, 1.0}'";
/** Document index: opening, headings and title in the ratio 1 : 1.5 : 3. */
const DOC_WEIGHTS = "'{0.333, 0.1, 0.5, 1.0}'";

/** BM25 candidates the index hands over per hit wanted, before the filters (tenant, ACL, sources) apply. */
const BM25_OVERFETCH = 10;
const BM25_MIN_CANDIDATES = 100;

/**
 * Keyword ranking over the chunks the principal may read: BM25 through pg_textsearch when `bm25`, else cover
 * density (ts_rank_cd). Matching is the tsvector's either way (stemmed, any term); `raw` > 0, higher is better.
 *
 * With BM25 the index does the top-k: `ORDER BY bm25 <@> query LIMIT n` is an index scan that scores only
 * what it returns. The filters (and the row-level-security policies) run on those n candidates, so a filter
 * that removes many of them can leave fewer than k; then the query runs again ranking every match, which is
 * exact but slower. Without pg_textsearch every match is ranked (the GIN index finds them where row-level
 * security lets the planner use it).
 */
export async function keywordSearch(
  client: pg.ClientBase,
  query: KeywordQuery,
  options: { bm25: boolean; match?: TextMatch } = { bm25: false },
): Promise<ScoredChunk[]> {
  const match = options.match ?? "@@";
  const text = tsqueryText(query.terms);
  const k = Math.floor(query.k);
  if (text === undefined || k <= 0) return [];
  if (options.bm25) {
    const candidates = Math.max(BM25_MIN_CANDIDATES, k * BM25_OVERFETCH);
    const top = await bm25Search(client, query, text, k, candidates, match);
    if (top.rows.length >= k || top.candidates < candidates) return top.rows;
  }
  return rankAll(client, query, text, k, options.bm25, match);
}

/** The index's top `candidates` by BM25, then the filters; also how many candidates the index returned. */
async function bm25Search(
  client: pg.ClientBase,
  query: KeywordQuery,
  text: string,
  k: number,
  candidates: number,
  match: TextMatch,
): Promise<{ rows: ScoredChunk[]; candidates: number }> {
  const p = new Params();
  const q = `to_tsquery('${TS_CONFIG}', ${p.add(text)})`;
  const bm25q = `to_bm25query(${p.add(query.terms.map(foldText).join(" "))}, '${BM25_INDEX}')`;
  const limit = p.add(candidates);
  const filter = chunkFilter(p, query);
  // The score is the one the index scan computed for the row it returned (bm25_get_current_score, what
  // pg_textsearch's planner hook puts in place of the ORDER BY expression): written as bm25 <@> query in the
  // select list it was scored again per row outside the index, 90 of a search's 100 ms on PGlite at 2k chunks.
  // n is MATERIALIZED so it is counted once: inlined, the planner recounted the candidates for every one of them.
  const rows = (
    await client.query<ScoredRow & { raw: number; candidates: number }>(
      `WITH q AS (SELECT ${q} AS q),
       top AS MATERIALIZED (SELECT c.rowid, bm25_get_current_score() AS score FROM chunks AS c
         ORDER BY c.bm25 <@> ${bm25q} LIMIT ${limit}),
       n AS MATERIALIZED (SELECT count(*)::int AS candidates FROM top)
       SELECT ${SCORED_COLUMNS}, -top.score AS raw, n.candidates
       FROM q, n, top JOIN chunks AS c ON c.rowid = top.rowid ${JOIN_DOCUMENT}
       WHERE c.tsv ${match} q.q AND ${filter}
       ORDER BY raw DESC, c.rowid
       LIMIT ${p.add(k)}`,
      p.values,
    )
  ).rows;
  // No row passed the filters: count the candidates on their own to tell "few matches" from "all filtered".
  const found =
    rows[0]?.candidates ??
    Number(
      (
        await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM (SELECT 1 FROM chunks AS c ORDER BY c.bm25 <@> to_bm25query($1, '${BM25_INDEX}') LIMIT $2) AS t`,
          [query.terms.map(foldText).join(" "), candidates],
        )
      ).rows[0]?.n ?? 0,
    );
  return { rows: rows.map((row) => toScoredChunk(row, row.raw)), candidates: found };
}

/** Ranks every match that passes the filters (exact; the fallback when the BM25 candidates run short). */
async function rankAll(
  client: pg.ClientBase,
  query: KeywordQuery,
  text: string,
  k: number,
  bm25: boolean,
  match: TextMatch,
): Promise<ScoredChunk[]> {
  const p = new Params();
  const q = `to_tsquery('${TS_CONFIG}', ${p.add(text)})`;
  // The sign keeps the planner off the index's own ordering, which would drop rows the filter removes.
  const rank = bm25
    ? `-(c.bm25 <@> to_bm25query(${p.add(query.terms.map(foldText).join(" "))}, '${BM25_INDEX}'))`
    : `ts_rank_cd(${CHUNK_WEIGHTS}, c.tsv, q.q)`;
  const filter = chunkFilter(p, query);
  // The top k are ranked on the chunks alone and only they are joined to their documents: the join (and the
  // documents' row-level-security checks) on every match took 30 of a search's 31 ms at 5k chunks. A chunk
  // the filters pass always has a document they pass (same tenant, source and ACL).
  const rows = (
    await client.query<ScoredRow & { raw: number }>(
      `WITH q AS (SELECT ${q} AS q),
       top AS MATERIALIZED (SELECT c.rowid, ${rank} AS raw FROM q, chunks AS c
         WHERE c.tsv ${match} q.q AND ${filter}
         ORDER BY raw DESC, c.rowid
         LIMIT ${p.add(k)})
       SELECT ${SCORED_COLUMNS}, top.raw
       FROM top JOIN chunks AS c ON c.rowid = top.rowid ${JOIN_DOCUMENT}
       ORDER BY top.raw DESC, c.rowid`,
      p.values,
    )
  ).rows;
  return rows.map((row) => toScoredChunk(row, row.raw));
}

/** Keyword ranking over title, headings and opening of the documents the principal may read. */
export async function documentSearch(
  client: pg.ClientBase,
  query: KeywordQuery,
  options: { match?: TextMatch } = {},
): Promise<ScoredDocument[]> {
  const text = tsqueryText(query.terms);
  if (text === undefined || query.k <= 0) return [];
  const p = new Params();
  const q = `to_tsquery('${TS_CONFIG}', ${p.add(text)})`;
  const filter = chunkFilter(p, { principal: query.principal, sources: query.sources, since: query.since }, "d", "id");
  const rows = (
    await client.query<{ id: string; source: string; title: string; updated_at: string | null; raw: number }>(
      `WITH q AS (SELECT ${q} AS q)
       SELECT d.id, d.source, d.title, d.updated_at, ts_rank_cd(${DOC_WEIGHTS}, d.doc_tsv, q.q) AS raw
       FROM q, documents AS d
       WHERE d.doc_tsv ${options.match ?? "@@"} q.q AND ${filter}
       ORDER BY raw DESC, d.source COLLATE "C", d.id COLLATE "C"
       LIMIT ${p.add(Math.floor(query.k))}`,
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

export interface VectorOptions {
  /** pgvector is installed (HNSW and its distance operator). */
  vector: boolean;
  /** `auto` uses the HNSW index at this many vectors in a tenant. */
  hnswThreshold: number;
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
  const held = await storedDims(client, tenant);
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
  const strategy = query.strategy ?? "auto";
  let approximate = options.vector && dims <= 2000 && strategy === "approximate";
  if (options.vector && dims <= 2000 && strategy === "auto") {
    const count = await client.query<{ n: number }>(
      "SELECT count(*) AS n FROM chunks WHERE tenant = $1 AND dims = $2",
      [tenant, dims],
    );
    approximate = (count.rows[0]?.n ?? 0) >= options.hnswThreshold;
  }
  const p = new Params();
  const values = Array.from(query.vector, (v) => (Number.isFinite(v) ? v : 0)).join(",");
  const vector = p.add(options.vector ? `[${values}]` : `{${values}}`);
  const filter = chunkFilter(p, query);
  let distance: string;
  if (!options.vector) {
    distance = `ferret.cosine_distance(c.embedding, ${vector}::real[])`;
  } else if (approximate) {
    // The expression of the partial HNSW index, so the planner can use it; iterative scans keep going
    // past candidates the filter drops until k pass.
    await client.query("SET LOCAL hnsw.iterative_scan = strict_order");
    await client.query(`SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(40, k * 2))}`);
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
