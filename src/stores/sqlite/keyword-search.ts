import type { KeywordQuery, ScoredChunk } from "../../spec/store.js";
import type { StoreContext } from "./context.js";
import { chunkFilter } from "./filters.js";
import { SCORED_COLUMNS, type ScoredRow, toScoredChunk } from "./scored.js";

/** bm25() column weights of chunks_fts: title, section, body. */
export const BM25_WEIGHTS = { title: 2.0, section: 1.5, body: 1.0 } as const;

/** An FTS5 query that ORs the terms, each quoted so no term is read as syntax. */
export function matchExpression(terms: string[]): string | undefined {
  const quoted = terms.filter((term) => term.trim().length > 0).map((term) => `"${term.replaceAll('"', '""')}"`);
  return quoted.length > 0 ? quoted.join(" OR ") : undefined;
}

/** BM25 over the chunks the principal may read; `raw` is -bm25 (positive, higher is better). */
export function keywordSearch(ctx: StoreContext, query: KeywordQuery): ScoredChunk[] {
  const match = matchExpression(query.terms);
  if (match === undefined || query.k <= 0) return [];
  const filter = chunkFilter(query);
  if (query.docIds !== undefined) {
    filter.sql += " AND c.doc_id IN (SELECT value FROM json_each(?))";
    filter.params.push(JSON.stringify(query.docIds));
  }
  const { title, section, body } = BM25_WEIGHTS;
  // CROSS JOIN pins the join order: FTS drives, chunks are looked up by rowid (the planner may otherwise scan
  // chunks and run the MATCH once per row). Documents are joined only for the k rows kept.
  const rows = ctx
    .stmt(
      `WITH hits AS (
         SELECT c.rowid AS rowid, -bm25(chunks_fts, ${title}, ${section}, ${body}) AS raw
         FROM chunks_fts CROSS JOIN chunks AS c ON c.rowid = chunks_fts.rowid
         WHERE chunks_fts MATCH ? AND ${filter.sql}
         ORDER BY raw DESC
         LIMIT ?
       )
       SELECT ${SCORED_COLUMNS}, hits.raw AS raw
       FROM hits
       CROSS JOIN chunks AS c ON c.rowid = hits.rowid
       CROSS JOIN documents AS d ON d.tenant = c.tenant AND d.id = c.doc_id
       ORDER BY hits.raw DESC`,
    )
    .all(match, ...filter.params, Math.floor(query.k)) as (ScoredRow & { raw: number })[];
  return rows.map((row) => toScoredChunk(row, row.raw));
}
