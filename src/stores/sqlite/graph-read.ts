import type { EntityQuery } from "../../spec/graph.js";
import { entityKey } from "../../spec/graph.js";
import type { Passage } from "../../spec/passage.js";
import type { Principal } from "../../spec/principal.js";
import { type EntityRow, entityPatterns, passageOf, toEntity } from "../graph-entity.js";
import { SCORED_COLUMNS, type ScoredRow } from "../scored-row.js";
import type { StoreContext } from "./context.js";
import { chunkFilter } from "./filters.js";

/** Entities matching a value that the principal can see through at least one readable chunk. */
export function findEntityRows(ctx: StoreContext, query: Omit<EntityQuery, "evidence">): EntityRow[] {
  const key = entityKey(query.value);
  if (key.length === 0 || query.k <= 0) return [];
  const filter = chunkFilter({ principal: query.principal });
  // Very short values match too much inside other keys: exact and prefix matches only.
  const { prefix, pattern } = entityPatterns(key);
  // A title's own mention may carry the type of the same text in the body; its role still says `defines`.
  const typeClause = query.type === undefined ? "" : "AND (m.type = ? OR (? = 'title' AND m.role = 1))";
  const rows = ctx
    .stmt(
      `WITH candidates AS (
         SELECT e.id AS id, CASE WHEN e.key = ? THEN 2 WHEN e.key LIKE ? ESCAPE '\\' THEN 1 ELSE 0 END AS exactness
         FROM graph_entities AS e WHERE e.tenant = ? AND e.key LIKE ? ESCAPE '\\'
       )
       SELECT e.id AS id, e.key AS key, e.text AS text, ${query.type === undefined ? "e.type" : "?"} AS type,
         count(*) AS mentions, count(DISTINCT c.source || '/' || c.doc_id) AS documents, k.exactness AS exactness
       FROM candidates AS k
       CROSS JOIN graph_entities AS e ON e.id = k.id
       CROSS JOIN graph_mentions AS m ON m.entity_id = e.id
       CROSS JOIN chunks AS c ON c.rowid = m.chunk_rowid
       WHERE ${filter.sql} ${typeClause}
       GROUP BY e.id
       ORDER BY exactness DESC, mentions DESC, e.key
       LIMIT ?`,
    )
    .all(
      key,
      prefix,
      query.principal.tenant,
      pattern,
      ...(query.type === undefined ? [] : [query.type]),
      ...filter.params,
      ...(query.type === undefined ? [] : [query.type, query.type]),
      Math.floor(query.k),
    ) as Record<string, unknown>[];
  return rows.map(toEntity);
}

/** The best visible entity for a value (exact key first), or undefined. */
export function resolveEntity(ctx: StoreContext, value: string, principal: Principal): EntityRow | undefined {
  return findEntityRows(ctx, { value, principal, k: 1 })[0];
}

/** Visible mention counts for entities by rowid (those not visible are left out). */
export function entityStats(ctx: StoreContext, ids: number[], principal: Principal): Map<number, EntityRow> {
  if (ids.length === 0) return new Map();
  const filter = chunkFilter({ principal });
  const rows = ctx
    .stmt(
      `SELECT e.id AS id, e.key AS key, e.text AS text, e.type AS type, count(*) AS mentions,
         count(DISTINCT c.source || '/' || c.doc_id) AS documents, 0 AS exactness
       FROM graph_entities AS e
       CROSS JOIN graph_mentions AS m ON m.entity_id = e.id
       CROSS JOIN chunks AS c ON c.rowid = m.chunk_rowid
       WHERE e.id IN (SELECT value FROM json_each(?)) AND ${filter.sql}
       GROUP BY e.id`,
    )
    .all(JSON.stringify(ids), ...filter.params) as Record<string, unknown>[];
  return new Map(rows.map((row) => [Number(row.id), toEntity(row)]));
}

/** Readable chunks mentioning an entity: those of documents titled by it first, then by mention count. */
export function mentionPassages(
  ctx: StoreContext,
  options: { entityId: number; principal: Principal; limit: number; score: number },
): Passage[] {
  const filter = chunkFilter({ principal: options.principal });
  const rows = ctx
    .stmt(
      `SELECT ${SCORED_COLUMNS}
       FROM graph_mentions AS m
       CROSS JOIN chunks AS c ON c.rowid = m.chunk_rowid
       CROSS JOIN documents AS d ON d.tenant = c.tenant AND d.id = c.doc_id AND d.source = c.source
       WHERE m.entity_id = ? AND ${filter.sql}
       ORDER BY m.role DESC, m.count DESC, c.rowid
       LIMIT ?`,
    )
    .all(options.entityId, ...filter.params, options.limit) as ScoredRow[];
  return rows.map((row) => passageOf(row, options.score));
}

/** Readable chunks mentioning both entities: text co-mentions before title-derived ones. */
export function edgePassages(
  ctx: StoreContext,
  options: { a: number; b: number; principal: Principal; limit: number; score: number },
): Passage[] {
  const filter = chunkFilter({ principal: options.principal });
  const rows = ctx
    .stmt(
      `SELECT ${SCORED_COLUMNS}
       FROM graph_mentions AS m1
       CROSS JOIN graph_mentions AS m2 ON m2.chunk_rowid = m1.chunk_rowid AND m2.entity_id = ?
       CROSS JOIN chunks AS c ON c.rowid = m1.chunk_rowid
       CROSS JOIN documents AS d ON d.tenant = c.tenant AND d.id = c.doc_id AND d.source = c.source
       WHERE m1.entity_id = ? AND ${filter.sql}
       ORDER BY m1.role + m2.role, m1.count + m2.count DESC, c.rowid
       LIMIT ?`,
    )
    .all(options.b, options.a, ...filter.params, options.limit) as ScoredRow[];
  return rows.map((row) => passageOf(row, options.score));
}
