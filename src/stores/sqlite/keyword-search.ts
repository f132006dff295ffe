import type { KeywordQuery, ScoredChunk } from "../../spec/store.js";
import type { StoreContext } from "./context.js";
import { chunkFilter, type SqlFragment } from "./filters.js";
import { SCORED_COLUMNS, type ScoredRow, toScoredChunk } from "./scored.js";

/** bm25() column weights of chunks_fts: title, section, body. */
export const BM25_WEIGHTS = { title: 2.0, section: 1.5, body: 1.0 } as const;

const { title: W_TITLE, section: W_SECTION, body: W_BODY } = BM25_WEIGHTS;
const RAW = `-bm25(chunks_fts, ${W_TITLE}, ${W_SECTION}, ${W_BODY})`;

/** Candidates ranked from the FTS table alone before the filter is applied (rounds grow by ROUND_GROWTH). */
const FIRST_ROUND = 64;
const ROUND_GROWTH = 16;
/** Ranked rounds tried before one query that joins every match to its chunk (the filter is too selective). */
const ROUNDS = 2;

/** An FTS5 query that ORs the terms, each quoted so no term is read as syntax. */
export function matchExpression(terms: string[]): string | undefined {
  const quoted = terms.filter((term) => term.trim().length > 0).map((term) => `"${term.replaceAll('"', '""')}"`);
  return quoted.length > 0 ? quoted.join(" OR ") : undefined;
}

type Hit = ScoredRow & { raw: number };

/**
 * BM25 over the chunks the principal may read; `raw` is -bm25 (positive, higher is better), ties broken by
 * rowid. Most of the cost of a frequent term is the per-match lookup of its chunk row, so the top candidates are
 * first ranked from the FTS table alone and only they are checked against the filter (in SQL). bm25() scores
 * do not depend on the filter, so when at least k candidates pass, or the candidates are every match, the
 * result is exactly that of filtering first; otherwise the round grows, and at last one query filters every
 * match (`keywordSearchJoined`).
 */
export function keywordSearch(ctx: StoreContext, query: KeywordQuery): ScoredChunk[] {
  const match = matchExpression(query.terms);
  const k = Math.floor(query.k);
  if (match === undefined || k <= 0) return [];
  const filter = chunkFilter(query);
  const ranked = ctx.stmt(
    `SELECT rowid AS rowid, ${RAW} AS raw FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY raw DESC, rowid LIMIT ?`,
  );
  let pool = Math.max(k * 2, FIRST_ROUND);
  for (let round = 0; round < ROUNDS; round++) {
    const candidates = ranked.all(match, pool) as { rowid: number; raw: number }[];
    const kept = permitted(ctx, candidates, filter, k);
    if (kept.length === k || candidates.length < pool) return kept;
    pool *= ROUND_GROWTH;
  }
  return keywordSearchJoined(ctx, match, filter, k);
}

/** The candidates (in rank order) that pass the filter, at most k, with their chunk and document fields. */
function permitted(
  ctx: StoreContext,
  candidates: { rowid: number; raw: number }[],
  filter: SqlFragment,
  k: number,
): ScoredChunk[] {
  if (candidates.length === 0) return [];
  const rows = ctx
    .stmt(
      `SELECT ${SCORED_COLUMNS}
       FROM json_each(?) AS j
       CROSS JOIN chunks AS c ON c.rowid = j.value
       CROSS JOIN documents AS d ON d.tenant = c.tenant AND d.id = c.doc_id
       WHERE ${filter.sql}
       ORDER BY j.key
       LIMIT ?`,
    )
    .all(JSON.stringify(candidates.map((c) => c.rowid)), ...filter.params, k) as ScoredRow[];
  const raws = new Map(candidates.map((c) => [c.rowid, c.raw]));
  return rows.map((row) => toScoredChunk(row, raws.get(row.rowid) ?? 0));
}

/**
 * One query that filters every match before ranking: the fallback when few matches pass the filter.
 * CROSS JOIN pins the join order: FTS drives, chunks are looked up by rowid (the planner may otherwise scan
 * chunks and run the MATCH once per row). Documents are joined only for the k rows kept.
 */
export function keywordSearchJoined(ctx: StoreContext, match: string, filter: SqlFragment, k: number): ScoredChunk[] {
  const rows = ctx
    .stmt(
      `WITH hits AS (
         SELECT c.rowid AS rowid, ${RAW} AS raw
         FROM chunks_fts CROSS JOIN chunks AS c ON c.rowid = chunks_fts.rowid
         WHERE chunks_fts MATCH ? AND ${filter.sql}
         ORDER BY raw DESC, c.rowid
         LIMIT ?
       )
       SELECT ${SCORED_COLUMNS}, hits.raw AS raw
       FROM hits
       CROSS JOIN chunks AS c ON c.rowid = hits.rowid
       CROSS JOIN documents AS d ON d.tenant = c.tenant AND d.id = c.doc_id
       ORDER BY hits.raw DESC, hits.rowid`,
    )
    .all(match, ...filter.params, k) as Hit[];
  return rows.map((row) => toScoredChunk(row, row.raw));
}
