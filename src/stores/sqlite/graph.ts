import type { DocumentWrite } from "../../spec/document.js";
import type {
  EntityMatches,
  EntityQuery,
  GraphEdge,
  GraphEntity,
  GraphPath,
  GraphStoreV1,
  Neighbourhood,
  NeighbourQuery,
  PathQuery,
} from "../../spec/graph.js";
import type { Passage } from "../../spec/passage.js";
import type { StoreContext } from "./context.js";
import {
  type EntityRow,
  edgePassages,
  entityStats,
  findEntityRows,
  mentionPassages,
  mergePassages,
  resolveEntity,
} from "./graph-read.js";
import { type Hop, shortestPath, walk } from "./graph-traverse.js";
import { writeMentions } from "./graph-write.js";

/** How the store runs an operation on its connection (closed checks, driver errors as StoreError). */
export type RunOnStore = <T>(operation: string, fn: (ctx: StoreContext) => T) => Promise<T>;

const DEFAULT_EVIDENCE = 2;
const DEFAULT_NEIGHBOURS = 10;
/** Neighbours kept per entity, and entities per level, while searching for a path. */
const PATH_PER_ENTITY = 100;
const PATH_FRONTIER = 400;
/** Passage score by hop: the root's own edges count most. */
const DEPTH_SCORE = [1, 1, 0.8, 0.6] as const;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.floor(value)));

function publicEntity(row: EntityRow): GraphEntity {
  return { key: row.key, text: row.text, type: row.type, mentions: row.mentions, documents: row.documents };
}

/**
 * Writes a document batch and its entity mentions in one transaction: `write` is the store's own document
 * write (its transaction nests as a savepoint), and the mentions go in after its chunks.
 */
export function writeDocumentsWithEntities<T>(ctx: StoreContext, batch: DocumentWrite[], write: () => T): T {
  return ctx.db
    .transaction(() => {
      const out = write();
      writeMentions(ctx, batch);
      return out;
    })
    .immediate();
}

/** The SQLite entity graph (`store.graph`). Every read filters by tenant and ACL through the chunks. */
export class SqliteGraph implements GraphStoreV1 {
  readonly specificationVersion = "v1" as const;
  readonly #run: RunOnStore;

  constructor(run: RunOnStore) {
    this.#run = run;
  }

  findEntities(query: EntityQuery): Promise<EntityMatches> {
    return this.#run("find entities", (ctx) => {
      const rows = findEntityRows(ctx, { ...query, k: clamp(query.k, 0, 100) });
      const evidence = clamp(query.evidence ?? DEFAULT_EVIDENCE, 0, 10);
      const passages = rows.flatMap((row) =>
        mentionPassages(ctx, {
          entityId: row.id,
          principal: query.principal,
          limit: evidence,
          score: row.exactness === 2 ? 1 : row.exactness === 1 ? 0.8 : 0.6,
        }),
      );
      return { entities: rows.map(publicEntity), passages: mergePassages(passages) };
    });
  }

  neighbours(query: NeighbourQuery): Promise<Neighbourhood | undefined> {
    return this.#run("traverse the entity graph", (ctx) => {
      const root = resolveEntity(ctx, query.entity, query.principal);
      if (!root) return undefined;
      const depth = clamp(query.depth, 1, 3);
      const { reached, hops } = walk(ctx, {
        root: root.id,
        depth,
        principal: query.principal,
        perEntity: clamp(query.limit ?? DEFAULT_NEIGHBOURS, 1, 50),
      });
      const stats = entityStats(ctx, [...reached.keys()], query.principal);
      const evidence = clamp(query.evidence ?? DEFAULT_EVIDENCE, 0, 10);
      const edges: (GraphEdge & { depth: number })[] = [];
      const passages: Passage[] = [];
      for (const hop of hops) {
        const found = this.#edge(ctx, hop, stats, {
          principal: query.principal,
          evidence,
          score: DEPTH_SCORE[hop.depth] ?? 0.5,
        });
        if (!found) continue;
        edges.push({ ...found.edge, depth: hop.depth });
        passages.push(...found.passages);
      }
      const entities = [...reached]
        .filter(([id]) => id !== root.id && stats.has(id))
        .map(([id, at]) => ({ ...publicEntity(stats.get(id) as EntityRow), depth: at }));
      return {
        root: publicEntity(stats.get(root.id) ?? root),
        entities,
        edges,
        passages: mergePassages(passages),
      };
    });
  }

  path(query: PathQuery): Promise<GraphPath | undefined> {
    return this.#run("find a path in the entity graph", (ctx) => {
      const from = resolveEntity(ctx, query.from, query.principal);
      const to = resolveEntity(ctx, query.to, query.principal);
      if (!from || !to) return undefined;
      const found = shortestPath(ctx, {
        from: from.id,
        to: to.id,
        maxDepth: clamp(query.maxDepth, 1, 5),
        principal: query.principal,
        perEntity: PATH_PER_ENTITY,
        frontierCap: PATH_FRONTIER,
      });
      if (!found) return undefined;
      const stats = entityStats(ctx, found.ids, query.principal);
      const evidence = clamp(query.evidence ?? DEFAULT_EVIDENCE, 1, 10);
      const edges: GraphEdge[] = [];
      const passages: Passage[] = [];
      for (const hop of found.hops) {
        const edge = this.#edge(ctx, hop, stats, { principal: query.principal, evidence, score: 1 });
        if (!edge) return undefined;
        edges.push(edge.edge);
        passages.push(...edge.passages);
      }
      const entities = found.ids.map((id) => stats.get(id)).filter((row): row is EntityRow => row !== undefined);
      if (entities.length !== found.ids.length) return undefined;
      return { entities: entities.map(publicEntity), edges, passages: mergePassages(passages) };
    });
  }

  /** An edge with its evidence passages (at least one is fetched, to name the chunks that show it). */
  #edge(
    ctx: StoreContext,
    hop: Hop,
    stats: Map<number, EntityRow>,
    options: { principal: NeighbourQuery["principal"]; evidence: number; score: number },
  ): { edge: GraphEdge; passages: Passage[] } | undefined {
    const a = stats.get(hop.src);
    const b = stats.get(hop.dst);
    if (!a || !b) return undefined;
    const shown = edgePassages(ctx, {
      a: hop.src,
      b: hop.dst,
      principal: options.principal,
      limit: Math.max(1, options.evidence),
      score: options.score,
    });
    const edge: GraphEdge = {
      from: a.key,
      to: b.key,
      kind: hop.defines ? "defines" : "co-occurs",
      weight: hop.weight,
      chunkIds: shown.map((p) => p.id),
    };
    return { edge, passages: options.evidence > 0 ? shown : [] };
  }
}
