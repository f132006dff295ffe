import type { Principal } from "../../spec/principal.js";
import { EXPAND_SAMPLE, type Hop, sortHops } from "../graph-entity.js";
import type { StoreContext } from "./context.js";
import { chunkFilter } from "./filters.js";

/**
 * Edges out of each entity in `ids`, through chunks the principal may read, keeping the `perEntity`
 * strongest per entity (weight = readable chunks mentioning both; `defines` when a side comes from a title).
 * Each entity is expanded from at most `EXPAND_SAMPLE` of its readable chunks, so a hub's weights are counted
 * on that sample.
 */
export function expand(ctx: StoreContext, options: { ids: number[]; principal: Principal; perEntity: number }): Hop[] {
  if (options.ids.length === 0) return [];
  const filter = chunkFilter({ principal: options.principal });
  const statement = ctx.stmt(
    `WITH sample AS (
       SELECT m1.chunk_rowid AS chunk_rowid, m1.role AS role
       FROM graph_mentions AS m1 CROSS JOIN chunks AS c ON c.rowid = m1.chunk_rowid
       WHERE m1.entity_id = ? AND ${filter.sql}
       LIMIT ?
     )
     SELECT m2.entity_id AS dst, count(*) AS weight, max(s.role + m2.role) AS defines
     FROM sample AS s CROSS JOIN graph_mentions AS m2 ON m2.chunk_rowid = s.chunk_rowid
     WHERE m2.entity_id <> ?
     GROUP BY m2.entity_id
     ORDER BY weight DESC, dst
     LIMIT ?`,
  );
  const hops: Hop[] = [];
  const perEntity = Math.max(1, Math.floor(options.perEntity));
  for (const src of options.ids) {
    const rows = statement.all(src, ...filter.params, EXPAND_SAMPLE, src, perEntity) as {
      dst: number;
      weight: number;
      defines: number;
    }[];
    for (const row of rows) hops.push({ src, dst: row.dst, weight: row.weight, defines: row.defines > 0 });
  }
  return sortHops(hops);
}
