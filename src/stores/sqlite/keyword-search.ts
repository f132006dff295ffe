import type { KeywordQuery, ScoredChunk } from "../../spec/store.js";
import { SCORED_COLUMNS, type ScoredRow, toScoredChunk } from "../scored-row.js";
import type { StoreContext } from "./context.js";
import { chunkFilter, type SqlFragment } from "./filters.js";

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
 * rowid. Two savings, both exact:
 * - Most of the cost of a frequent term is the per-match lookup of its chunk row, so the top candidates are
 *   first ranked from the FTS table alone and only they are checked against the filter (in SQL). bm25() scores
 *   do not depend on the filter, so when at least k candidates pass, or the candidates are every match, the
 *   result is that of filtering first; otherwise the round grows, and at last one query filters every match.
 * - A term's bm25 contribution is below (k1 + 1) * idf, so chunks holding only the most frequent terms score
 *   below the sum of those bounds; when k chunks with a rarer term beat it, the rest need no scoring
 *   (`boundedSearch`).
 */
export function keywordSearch(ctx: StoreContext, query: KeywordQuery): ScoredChunk[] {
  const match = matchExpression(query.terms);
  const k = Math.floor(query.k);
  if (match === undefined || k <= 0) return [];
  const filter = chunkFilter(query);
  return (
    boundedSearch(ctx, query.terms, filter, k) ??
    rankedRounds(ctx, [match], filter, k) ??
    keywordSearchJoined(ctx, match, filter, k)
  );
}

type Candidate = { rowid: number; raw: number };
const byRank = (a: Candidate, b: Candidate) => b.raw - a.raw || a.rowid - b.rowid;

/**
 * The top k permitted chunks matching any of `matches` (which must not overlap), from the top candidates of
 * each ranked by FTS alone; undefined when the rounds run out before k pass or the matches are exhausted.
 */
function rankedRounds(ctx: StoreContext, matches: string[], filter: SqlFragment, k: number): ScoredChunk[] | undefined {
  const ranked = ctx.stmt(
    `SELECT rowid AS rowid, ${RAW} AS raw FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY raw DESC, rowid LIMIT ?`,
  );
  let pool = Math.max(k * 2, FIRST_ROUND);
  for (let round = 0; round < ROUNDS; round++) {
    const lists = matches.map((m) => ranked.all(m, pool) as Candidate[]);
    const candidates = lists.length === 1 ? (lists[0] ?? []) : lists.flat().sort(byRank).slice(0, pool);
    const kept = permitted(ctx, candidates, filter, k);
    if (kept.length === k || lists.every((list) => list.length < pool)) return kept;
    pool *= ROUND_GROWTH;
  }
  return undefined;
}

/** FTS5's bm25 constant k1 (b is 0.75): a term adds at most (k1 + 1) * idf to a row's score. */
const K1 = 1.2;
/** Pruning is tried when the chunks holding a rarer term are at most this share of all matches. */
const ESSENTIAL_SHARE = 0.3;

/**
 * MaxScore over FTS5: the most frequent terms (whose bounds add up to at most half the largest bound) are
 * "rest", the others "essential". Chunks with an essential term are ranked by two disjoint queries that keep
 * every term as a phrase, so their bm25() is the full query's (`E AND R`, `E NOT R`). When the k-th permitted
 * one scores above the rest's bound, no chunk holding only rest terms can enter the top k. Otherwise undefined.
 */
function boundedSearch(ctx: StoreContext, terms: string[], filter: SqlFragment, k: number): ScoredChunk[] | undefined {
  const phrases = [...new Set(terms.map((t) => matchExpression([t])).filter((p) => p !== undefined))];
  if (phrases.length < 2 || phrases.length !== terms.length) return undefined;
  const count = ctx.stmt("SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?");
  const hits = phrases.map((phrase) => (count.get(phrase) as { n: number }).n);
  // Rows in the index are at most the largest chunk rowid, and idf only grows with the row count.
  const rows = (ctx.stmt("SELECT max(rowid) AS n FROM chunks").get() as { n: number | null }).n ?? 0;
  const bounds = hits.map((n) => (K1 + 1) * Math.max(Math.log((rows - n + 0.5) / (n + 0.5)), 1e-6));
  const largest = Math.max(...bounds);
  const rest = new Set<number>();
  let restBound = 0;
  for (const i of phrases.map((_, i) => i).sort((a, b) => (bounds[a] ?? 0) - (bounds[b] ?? 0))) {
    const bound = bounds[i] ?? 0;
    if (restBound + bound > largest / 2) break;
    rest.add(i);
    restBound += bound;
  }
  // Phrases nothing matches add nothing to any score, so they are left out.
  const essential = phrases.filter((_, i) => !rest.has(i) && (hits[i] ?? 0) > 0);
  const restPhrases = phrases.filter((_, i) => rest.has(i) && (hits[i] ?? 0) > 0);
  if (essential.length === 0 || restPhrases.length === 0) return undefined;
  const all = hits.reduce((a, b) => a + b, 0);
  const few = hits.reduce((a, n, i) => (rest.has(i) ? a : a + n), 0);
  if (few > ESSENTIAL_SHARE * all) return undefined;
  const e = `(${essential.join(" OR ")})`;
  const r = `(${restPhrases.join(" OR ")})`;
  const kept = rankedRounds(ctx, [`${e} AND ${r}`, `${e} NOT ${r}`], filter, k);
  const kth = kept?.[k - 1];
  return kth !== undefined && kth.raw > restBound * (1 + 1e-9) ? kept : undefined;
}

/** The candidates (in rank order) that pass the filter, at most k, with their chunk and document fields. */
function permitted(ctx: StoreContext, candidates: Candidate[], filter: SqlFragment, k: number): ScoredChunk[] {
  if (candidates.length === 0) return [];
  const rows = ctx
    .stmt(
      `SELECT ${SCORED_COLUMNS}
       FROM json_each(?) AS j
       CROSS JOIN chunks AS c ON c.rowid = j.value
       CROSS JOIN documents AS d ON d.tenant = c.tenant AND d.id = c.doc_id AND d.source = c.source
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
       CROSS JOIN documents AS d ON d.tenant = c.tenant AND d.id = c.doc_id AND d.source = c.source
       ORDER BY hits.raw DESC, hits.rowid`,
    )
    .all(match, ...filter.params, k) as Hit[];
  return rows.map((row) => toScoredChunk(row, row.raw));
}
