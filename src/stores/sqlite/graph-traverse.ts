import type { Principal } from "../../spec/principal.js";
import type { StoreContext } from "./context.js";
import { chunkFilter } from "./filters.js";

/** One visible edge found by expanding an entity: `src` is the expanded side. */
export interface Hop {
  src: number;
  dst: number;
  weight: number;
  defines: boolean;
}

/** Readable chunks read per entity expanded: a hub (an entity in thousands of chunks) costs no more than this. */
export const EXPAND_SAMPLE = 500;

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
  return hops.sort((a, b) => b.weight - a.weight || a.src - b.src || a.dst - b.dst);
}

/** Breadth-first walk to `depth` hops: each entity's first (shallowest, strongest) arrival is kept. */
export function walk(
  ctx: StoreContext,
  options: { root: number; depth: number; principal: Principal; perEntity: number },
): { reached: Map<number, number>; hops: (Hop & { depth: number })[] } {
  const reached = new Map<number, number>([[options.root, 0]]);
  const hops: (Hop & { depth: number })[] = [];
  let frontier = [options.root];
  for (let depth = 1; depth <= options.depth && frontier.length > 0; depth++) {
    const next: number[] = [];
    for (const hop of expand(ctx, { ids: frontier, principal: options.principal, perEntity: options.perEntity })) {
      const seen = reached.get(hop.dst);
      if (seen === undefined) {
        reached.set(hop.dst, depth);
        next.push(hop.dst);
        hops.push({ ...hop, depth });
      } else if (seen === depth && !hops.some((h) => h.src === hop.dst && h.dst === hop.src)) {
        // Another edge into an entity of this level: kept, so the neighbourhood shows it too.
        hops.push({ ...hop, depth });
      }
    }
    frontier = next;
  }
  return { reached, hops };
}

interface Arrival {
  prev: number;
  hop: Hop;
}

/** One end of the two-ended search: how each entity was first reached, and the entities to expand next. */
interface Side {
  arrivals: Map<number, Arrival | null>;
  frontier: number[];
}

/**
 * Shortest path by hops between two entities, searching from both ends (the smaller frontier expands);
 * among paths of that length through the first meeting level, the one with the strongest meeting edges.
 * Expansion keeps `perEntity` edges per entity and at most `frontierCap` entities per level, so on very
 * dense graphs a path through weak edges may be missed.
 */
export function shortestPath(
  ctx: StoreContext,
  options: { from: number; to: number; maxDepth: number; principal: Principal; perEntity: number; frontierCap: number },
): { ids: number[]; hops: Hop[] } | undefined {
  if (options.from === options.to) return { ids: [options.from], hops: [] };
  const forward: Side = { arrivals: new Map([[options.from, null]]), frontier: [options.from] };
  const backward: Side = { arrivals: new Map([[options.to, null]]), frontier: [options.to] };
  for (let hopsUsed = 0; hopsUsed < options.maxDepth; hopsUsed++) {
    const [side, other] =
      forward.frontier.length <= backward.frontier.length ? [forward, backward] : [backward, forward];
    const next: number[] = [];
    let meet: { at: number; weight: number } | undefined;
    for (const hop of expand(ctx, { ids: side.frontier, principal: options.principal, perEntity: options.perEntity })) {
      if (side.arrivals.has(hop.dst)) continue;
      side.arrivals.set(hop.dst, { prev: hop.src, hop });
      next.push(hop.dst);
      if (other.arrivals.has(hop.dst) && (meet === undefined || hop.weight > meet.weight)) {
        meet = { at: hop.dst, weight: hop.weight };
      }
    }
    if (meet !== undefined) return join(meet.at, forward.arrivals, backward.arrivals);
    if (next.length === 0) return undefined;
    side.frontier = next.slice(0, options.frontierCap);
  }
  return undefined;
}

/** The path from the forward root through `at` to the backward root. */
function join(
  at: number,
  forward: Map<number, Arrival | null>,
  backward: Map<number, Arrival | null>,
): { ids: number[]; hops: Hop[] } {
  const ids = [at];
  const hops: Hop[] = [];
  for (let arrival = forward.get(at); arrival; arrival = forward.get(arrival.prev)) {
    ids.unshift(arrival.prev);
    hops.unshift(arrival.hop);
  }
  for (let arrival = backward.get(at); arrival; arrival = backward.get(arrival.prev)) {
    ids.push(arrival.prev);
    hops.push({ ...arrival.hop, src: arrival.hop.dst, dst: arrival.hop.src });
  }
  return { ids, hops };
}
