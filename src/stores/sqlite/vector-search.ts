import { MissingDependencyError } from "../../spec/errors.js";
import type { ScoredChunk, VectorQuery } from "../../spec/store.js";
import { USEARCH } from "../../util/optional-import.js";
import { SCORED_COLUMNS, type ScoredRow, toScoredChunk } from "../scored-row.js";
import { type StoreContext, vectorBlob } from "./context.js";
import { chunkFilter } from "./filters.js";
import { EXACT_INSTEAD, type HnswIndexes } from "./hnsw.js";
import { getEmbedderInfo, mismatch, storedDims, vectorCount, vectorTable, vectorTableExists } from "./vectors.js";

/** sqlite-vec's largest k for one KNN query. */
const MAX_K = 4096;

export interface VectorSearchOptions {
  hnsw: HnswIndexes;
  /** `auto` uses HNSW once the tenant holds this many vectors. */
  hnswThreshold: number;
}

/** Cosine kNN over the chunks the principal may read; score and raw are the cosine similarity. */
export function vectorSearch(ctx: StoreContext, query: VectorQuery, options: VectorSearchOptions): ScoredChunk[] {
  const k = Math.min(Math.floor(query.k), MAX_K);
  if (k <= 0) return [];
  const dims = query.vector.length;
  const tenant = query.principal.tenant;
  const held = storedDims(ctx, tenant);
  if (held === undefined) return [];
  if (held !== dims) {
    const info = getEmbedderInfo(ctx, tenant);
    throw mismatch({
      tenant,
      expected: { id: info?.id, dimensions: held },
      got: { dimensions: dims },
      where: "the query vector comes",
    });
  }
  if (!vectorTableExists(ctx, dims)) return [];
  const strategy = query.strategy ?? "auto";
  // Without usearch (an optional peer dependency) `auto` searches exactly; `approximate` says what to install.
  if (strategy === "approximate" && !options.hnsw.available)
    throw new MissingDependencyError(USEARCH, "approximate vector search", undefined, EXACT_INSTEAD);
  const useHnsw =
    strategy === "approximate" ||
    (strategy === "auto" && vectorCount(ctx, tenant, dims) >= options.hnswThreshold && options.hnsw.available);
  if (useHnsw) {
    const found = approximate(ctx, query, k, options.hnsw);
    if (found) return found;
  }
  return exact(ctx, query, k);
}

/** sqlite-vec KNN with every filter applied during the scan (tenant partition, permitted rowids). */
function exact(ctx: StoreContext, query: VectorQuery, k: number): ScoredChunk[] {
  const dims = query.vector.length;
  const filter = chunkFilter(query);
  const restrict = filter.narrowed ? `AND v.rowid IN (SELECT c.rowid FROM chunks AS c WHERE ${filter.sql})` : "";
  const rows = ctx
    .stmt(
      `WITH knn AS (
         SELECT v.rowid AS rowid, v.distance AS distance FROM ${vectorTable(dims)} AS v
         WHERE v.embedding MATCH ? AND k = ? AND v.tenant = ? ${restrict}
       )
       SELECT ${SCORED_COLUMNS}, knn.distance AS distance
       FROM knn
       CROSS JOIN chunks AS c ON c.rowid = knn.rowid
       CROSS JOIN documents AS d ON d.tenant = c.tenant AND d.id = c.doc_id AND d.source = c.source
       ORDER BY knn.distance`,
    )
    .all(
      vectorBlob(query.vector),
      k,
      query.principal.tenant,
      ...(filter.narrowed ? filter.params : []),
    ) as (ScoredRow & {
    distance: number;
  })[];
  return rows.map((row) => toScoredChunk(row, 1 - row.distance));
}

/**
 * HNSW candidates re-checked with the same SQL filter; the candidate pool grows until k pass. Returns
 * undefined when the pool is exhausted first, so the caller falls back to exact search. Distances are
 * usearch's (float32 cosine): reading vectors back from vec0 by rowid costs far more than the search.
 */
function approximate(ctx: StoreContext, query: VectorQuery, k: number, hnsw: HnswIndexes): ScoredChunk[] | undefined {
  const dims = query.vector.length;
  const size = hnsw.size(dims);
  const filter = chunkFilter(query);
  // The candidate list drives the join (a bare `rowid IN (...)` lets the planner scan the tenant's chunks).
  const statement = ctx.stmt(
    `SELECT ${SCORED_COLUMNS}
     FROM json_each(?) AS j
     CROSS JOIN chunks AS c ON c.rowid = j.value
     CROSS JOIN documents AS d ON d.tenant = c.tenant AND d.id = c.doc_id AND d.source = c.source
     WHERE ${filter.sql}`,
  );
  let pool = Math.max(k * 4, 64);
  for (;;) {
    const matches = hnsw.search(dims, query.vector, Math.min(pool, size));
    const rows = statement.all(JSON.stringify(matches.map((m) => m.rowid)), ...filter.params) as ScoredRow[];
    const byRowid = new Map(rows.map((row) => [row.rowid, row]));
    const out: ScoredChunk[] = [];
    for (const match of matches) {
      const row = byRowid.get(match.rowid);
      if (row) out.push(toScoredChunk(row, 1 - match.distance));
      if (out.length === k) return out;
    }
    if (pool >= size || pool >= MAX_K) return undefined;
    pool *= 4;
  }
}
