import type { GraphEdge, GraphEntity, GraphEntityType } from "../spec/graph.js";
import { type Passage, passageKey } from "../spec/passage.js";
import { type ScoredRow, toScoredChunk } from "./scored-row.js";

/** An entity as the reads return it: the node plus its rowid and how well it matched. */
export interface EntityRow extends GraphEntity {
  id: number;
  exactness: number;
}

/** One visible edge found by expanding an entity: `src` is the expanded side. */
export interface Hop {
  src: number;
  dst: number;
  weight: number;
  defines: boolean;
}

export const DEFAULT_EVIDENCE = 2;
export const DEFAULT_NEIGHBOURS = 10;
/** Neighbours kept per entity, and entities per level, while searching for a path. */
export const PATH_PER_ENTITY = 100;
export const PATH_FRONTIER = 400;
/** Readable chunks read per entity expanded: a hub (an entity in thousands of chunks) costs no more than this. */
export const EXPAND_SAMPLE = 500;
/** Passage score by hop: the root's own edges count most. */
export const DEPTH_SCORE = [1, 1, 0.8, 0.6] as const;

export const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.floor(value)));

/** The score of an entity match's evidence: exact key, prefix, or inside the key. */
export const exactnessScore = (exactness: number) => (exactness === 2 ? 1 : exactness === 1 ? 0.8 : 0.6);

export function publicEntity(row: EntityRow): GraphEntity {
  return { key: row.key, text: row.text, type: row.type, mentions: row.mentions, documents: row.documents };
}

/** An entity row as either driver returns it (PostgreSQL counts and ids may come back as strings). */
export function toEntity(row: Record<string, unknown>): EntityRow {
  return {
    id: Number(row.id),
    key: String(row.key),
    text: String(row.text),
    type: row.type as GraphEntityType,
    mentions: Number(row.mentions),
    documents: Number(row.documents),
    exactness: Number(row.exactness),
  };
}

/** Escapes `%`, `_` and `\` for LIKE ... ESCAPE '\'. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** The LIKE patterns of an entity lookup: very short keys match exact and prefix only, longer ones anywhere. */
export function entityPatterns(key: string): { prefix: string; pattern: string } {
  const literal = likeLiteral(key);
  return { prefix: `${literal}%`, pattern: key.length >= 3 ? `%${literal}%` : `${literal}%` };
}

export function passageOf(row: ScoredRow, score: number): Passage {
  const { raw: _raw, ...passage } = toScoredChunk(row, score);
  return passage;
}

/** Keeps the first occurrence of each passage (source and id), with the best score any occurrence had. */
export function mergePassages(passages: Passage[]): Passage[] {
  const byId = new Map<string, Passage>();
  for (const p of passages) {
    const key = passageKey(p);
    const seen = byId.get(key);
    if (!seen) byId.set(key, p);
    else if (p.score > seen.score) byId.set(key, { ...seen, score: p.score });
  }
  return [...byId.values()];
}

/** An edge between two entities of `stats`, named by the evidence passages `shown` (at least one was fetched). */
export function edgeOf(
  hop: Hop,
  stats: Map<number, EntityRow>,
  shown: Passage[],
  evidence: number,
): { edge: GraphEdge; passages: Passage[] } | undefined {
  const a = stats.get(hop.src);
  const b = stats.get(hop.dst);
  if (!a || !b) return undefined;
  const edge: GraphEdge = {
    from: a.key,
    to: b.key,
    kind: hop.defines ? "defines" : "co-occurs",
    weight: hop.weight,
    chunkIds: shown.map((p) => p.id),
  };
  return { edge, passages: evidence > 0 ? shown : [] };
}

/** What a traversal asks its store for: the edges out of `ids`, the `perEntity` strongest per entity. */
export interface ExpandRequest {
  ids: number[];
  perEntity: number;
}

/** A traversal that yields expansions and is handed their hops (sorted strongest first), ending with `R`. */
export type Traversal<R> = Generator<ExpandRequest, R, Hop[]>;

/** Runs a traversal on a store whose reads are synchronous (SQLite). */
export function traverseSync<R>(traversal: Traversal<R>, expand: (request: ExpandRequest) => Hop[]): R {
  let step = traversal.next();
  while (!step.done) step = traversal.next(expand(step.value));
  return step.value;
}

/** Runs a traversal on a store whose reads are asynchronous (PostgreSQL). */
export async function traverseAsync<R>(
  traversal: Traversal<R>,
  expand: (request: ExpandRequest) => Promise<Hop[]>,
): Promise<R> {
  let step = traversal.next();
  while (!step.done) step = traversal.next(await expand(step.value));
  return step.value;
}

/** Sorts hops strongest first, then by ids, so both stores walk them in one order. */
export function sortHops(hops: Hop[]): Hop[] {
  return hops.sort((a, b) => b.weight - a.weight || a.src - b.src || a.dst - b.dst);
}

/** Breadth-first walk to `depth` hops: each entity's first (shallowest, strongest) arrival is kept. */
export function* walk(options: {
  root: number;
  depth: number;
  perEntity: number;
}): Traversal<{ reached: Map<number, number>; hops: (Hop & { depth: number })[] }> {
  const reached = new Map<number, number>([[options.root, 0]]);
  const hops: (Hop & { depth: number })[] = [];
  let frontier = [options.root];
  for (let depth = 1; depth <= options.depth && frontier.length > 0; depth++) {
    const next: number[] = [];
    for (const hop of yield { ids: frontier, perEntity: options.perEntity }) {
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
 * Expansion keeps `PATH_PER_ENTITY` edges per entity and at most `PATH_FRONTIER` entities per level, so on
 * very dense graphs a path through weak edges may be missed.
 */
export function* shortestPath(options: {
  from: number;
  to: number;
  maxDepth: number;
}): Traversal<{ ids: number[]; hops: Hop[] } | undefined> {
  if (options.from === options.to) return { ids: [options.from], hops: [] };
  const forward: Side = { arrivals: new Map([[options.from, null]]), frontier: [options.from] };
  const backward: Side = { arrivals: new Map([[options.to, null]]), frontier: [options.to] };
  for (let hopsUsed = 0; hopsUsed < options.maxDepth; hopsUsed++) {
    const [side, other] =
      forward.frontier.length <= backward.frontier.length ? [forward, backward] : [backward, forward];
    const next: number[] = [];
    let meet: { at: number; weight: number } | undefined;
    for (const hop of yield { ids: side.frontier, perEntity: PATH_PER_ENTITY }) {
      if (side.arrivals.has(hop.dst)) continue;
      side.arrivals.set(hop.dst, { prev: hop.src, hop });
      next.push(hop.dst);
      if (other.arrivals.has(hop.dst) && (meet === undefined || hop.weight > meet.weight)) {
        meet = { at: hop.dst, weight: hop.weight };
      }
    }
    if (meet !== undefined) return join(meet.at, forward.arrivals, backward.arrivals);
    if (next.length === 0) return undefined;
    side.frontier = next.slice(0, PATH_FRONTIER);
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
