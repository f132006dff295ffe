import type { DocumentWrite } from "../../spec/document.js";
import type {
  EntityMatches,
  EntityQuery,
  GraphEdge,
  GraphPath,
  GraphStoreV1,
  Neighbourhood,
  NeighbourQuery,
  PathQuery,
} from "../../spec/graph.js";
import type { Passage } from "../../spec/passage.js";
import {
  clamp,
  DEFAULT_EVIDENCE,
  DEFAULT_NEIGHBOURS,
  DEPTH_SCORE,
  type EntityRow,
  edgeOf,
  exactnessScore,
  type Hop,
  mergePassages,
  publicEntity,
  shortestPath,
  traverseSync,
  walk,
} from "../graph-entity.js";
import type { StoreContext } from "./context.js";
import { edgePassages, entityStats, findEntityRows, mentionPassages, resolveEntity } from "./graph-read.js";
import { expand } from "./graph-traverse.js";
import { writeMentions } from "./graph-write.js";

/** How the store runs an operation on its connection (closed checks, driver errors as StoreError). */
export type RunOnStore = <T>(operation: string, fn: (ctx: StoreContext) => T) => Promise<T>;

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
          score: exactnessScore(row.exactness),
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
      const { reached, hops } = traverseSync(
        walk({ root: root.id, depth, perEntity: clamp(query.limit ?? DEFAULT_NEIGHBOURS, 1, 50) }),
        (request) => expand(ctx, { ...request, principal: query.principal }),
      );
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
      const found = traverseSync(
        shortestPath({ from: from.id, to: to.id, maxDepth: clamp(query.maxDepth, 1, 5) }),
        (request) => expand(ctx, { ...request, principal: query.principal }),
      );
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
    if (!stats.has(hop.src) || !stats.has(hop.dst)) return undefined;
    const shown = edgePassages(ctx, {
      a: hop.src,
      b: hop.dst,
      principal: options.principal,
      limit: Math.max(1, options.evidence),
      score: options.score,
    });
    return edgeOf(hop, stats, shown, options.evidence);
  }
}
