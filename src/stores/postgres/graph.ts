import type pg from "pg";
import type {
  EntityMatches,
  EntityQuery,
  GraphEdge,
  GraphEntityType,
  GraphPath,
  GraphStoreV1,
  Neighbourhood,
  NeighbourQuery,
  PathQuery,
} from "../../spec/graph.js";
import { entityKey } from "../../spec/graph.js";
import type { Passage } from "../../spec/passage.js";
import type { Principal } from "../../spec/principal.js";
import {
  clamp,
  DEFAULT_EVIDENCE,
  DEFAULT_NEIGHBOURS,
  DEPTH_SCORE,
  type EntityRow,
  EXPAND_SAMPLE,
  edgeOf,
  entityPatterns,
  exactnessScore,
  type Hop,
  mergePassages,
  passageOf,
  publicEntity,
  shortestPath,
  sortHops,
  toEntity,
  traverseAsync,
  walk,
} from "../graph-entity.js";
import { SCORED_COLUMNS, type ScoredRow } from "../scored-row.js";
import { Params, principalScope } from "./db.js";
import { chunkFilter } from "./filters.js";
import type { RunInTx } from "./records.js";
import { JOIN_DOCUMENT } from "./search.js";

async function findEntityRows(
  client: pg.ClientBase,
  query: { value: string; type?: GraphEntityType; principal: Principal; k: number },
): Promise<EntityRow[]> {
  const key = entityKey(query.value);
  if (key.length === 0 || query.k <= 0) return [];
  const p = new Params();
  const patterns = entityPatterns(key);
  const exact = p.add(key);
  const prefix = p.add(patterns.prefix);
  const tenant = p.add(query.principal.tenant);
  const like = p.add(patterns.pattern);
  const type = query.type === undefined ? undefined : p.add(query.type);
  const filter = chunkFilter(p, { principal: query.principal });
  const typeClause = type === undefined ? "" : `AND (m.type = ${type} OR (${type} = 'title' AND m.role = 1))`;
  const rows = await client.query(
    `WITH candidates AS (
       SELECT e.id, CASE WHEN e.key = ${exact} THEN 2 WHEN e.key LIKE ${prefix} ESCAPE '\\' THEN 1 ELSE 0 END AS exactness
       FROM graph_entities AS e WHERE e.tenant = ${tenant} AND e.key LIKE ${like} ESCAPE '\\'
     )
     SELECT e.id, e.key, e.text, ${type === undefined ? "e.type" : `${type}::text`} AS type,
       count(*) AS mentions, count(DISTINCT c.source || '/' || c.doc_id) AS documents, k.exactness
     FROM candidates AS k
     JOIN graph_entities AS e ON e.id = k.id
     JOIN graph_mentions AS m ON m.entity_id = e.id
     JOIN chunks AS c ON c.rowid = m.chunk_rowid
     WHERE ${filter} ${typeClause}
     GROUP BY e.id, e.key, e.text, e.type, k.exactness
     ORDER BY k.exactness DESC, mentions DESC, e.key COLLATE "C"
     LIMIT ${p.add(Math.floor(query.k))}`,
    p.values,
  );
  return rows.rows.map(toEntity);
}

async function resolveEntity(client: pg.ClientBase, value: string, principal: Principal) {
  return (await findEntityRows(client, { value, principal, k: 1 }))[0];
}

async function entityStats(
  client: pg.ClientBase,
  ids: number[],
  principal: Principal,
): Promise<Map<number, EntityRow>> {
  if (ids.length === 0) return new Map();
  const p = new Params();
  const list = p.add(ids);
  const filter = chunkFilter(p, { principal });
  const rows = await client.query(
    `SELECT e.id, e.key, e.text, e.type, count(*) AS mentions,
       count(DISTINCT c.source || '/' || c.doc_id) AS documents, 0 AS exactness
     FROM graph_entities AS e
     JOIN graph_mentions AS m ON m.entity_id = e.id
     JOIN chunks AS c ON c.rowid = m.chunk_rowid
     WHERE e.id = ANY (${list}::bigint[]) AND ${filter}
     GROUP BY e.id, e.key, e.text, e.type`,
    p.values,
  );
  return new Map(rows.rows.map((row) => [Number(row.id), toEntity(row)]));
}

async function mentionPassages(
  client: pg.ClientBase,
  options: { entityId: number; principal: Principal; limit: number; score: number },
): Promise<Passage[]> {
  const p = new Params();
  const entity = p.add(options.entityId);
  const filter = chunkFilter(p, { principal: options.principal });
  const rows = await client.query<ScoredRow>(
    `SELECT ${SCORED_COLUMNS}
     FROM graph_mentions AS m JOIN chunks AS c ON c.rowid = m.chunk_rowid ${JOIN_DOCUMENT}
     WHERE m.entity_id = ${entity} AND ${filter}
     ORDER BY m.role DESC, m.count DESC, c.rowid
     LIMIT ${p.add(options.limit)}`,
    p.values,
  );
  return rows.rows.map((row) => passageOf(row, options.score));
}

async function edgePassages(
  client: pg.ClientBase,
  options: { a: number; b: number; principal: Principal; limit: number; score: number },
): Promise<Passage[]> {
  const p = new Params();
  const b = p.add(options.b);
  const a = p.add(options.a);
  const filter = chunkFilter(p, { principal: options.principal });
  const rows = await client.query<ScoredRow>(
    `SELECT ${SCORED_COLUMNS}
     FROM graph_mentions AS m1
     JOIN graph_mentions AS m2 ON m2.chunk_rowid = m1.chunk_rowid AND m2.entity_id = ${b}
     JOIN chunks AS c ON c.rowid = m1.chunk_rowid ${JOIN_DOCUMENT}
     WHERE m1.entity_id = ${a} AND ${filter}
     ORDER BY m1.role + m2.role, m1.count + m2.count DESC, c.rowid
     LIMIT ${p.add(options.limit)}`,
    p.values,
  );
  return rows.rows.map((row) => passageOf(row, options.score));
}

/** Edges out of each entity through readable chunks, the `perEntity` strongest per entity (as the SQLite graph). */
async function expand(
  client: pg.ClientBase,
  options: { ids: number[]; principal: Principal; perEntity: number },
): Promise<Hop[]> {
  const hops: Hop[] = [];
  const perEntity = Math.max(1, Math.floor(options.perEntity));
  for (const src of options.ids) {
    const p = new Params();
    const id = p.add(src);
    const filter = chunkFilter(p, { principal: options.principal });
    const rows = await client.query<{ dst: number; weight: number; defines: number }>(
      `WITH sample AS (
         SELECT m1.chunk_rowid, m1.role
         FROM graph_mentions AS m1 JOIN chunks AS c ON c.rowid = m1.chunk_rowid
         WHERE m1.entity_id = ${id} AND ${filter}
         LIMIT ${p.add(EXPAND_SAMPLE)}
       )
       SELECT m2.entity_id AS dst, count(*) AS weight, max(s.role + m2.role) AS defines
       FROM sample AS s JOIN graph_mentions AS m2 ON m2.chunk_rowid = s.chunk_rowid
       WHERE m2.entity_id <> ${id}
       GROUP BY m2.entity_id
       ORDER BY weight DESC, dst
       LIMIT ${p.add(perEntity)}`,
      p.values,
    );
    for (const row of rows.rows) {
      hops.push({ src, dst: Number(row.dst), weight: Number(row.weight), defines: Number(row.defines) > 0 });
    }
  }
  return sortHops(hops);
}

/** The entity graph in PostgreSQL tables; every read filters by tenant and ACL through the chunks (and RLS). */
export class PgGraph implements GraphStoreV1 {
  readonly specificationVersion = "v1" as const;
  readonly #tx: RunInTx;

  constructor(tx: RunInTx) {
    this.#tx = tx;
  }

  findEntities(query: EntityQuery): Promise<EntityMatches> {
    return this.#tx("find entities", principalScope(query.principal), async (client) => {
      const rows = await findEntityRows(client, { ...query, k: clamp(query.k, 0, 100) });
      const evidence = clamp(query.evidence ?? DEFAULT_EVIDENCE, 0, 10);
      const passages: Passage[] = [];
      for (const row of rows) {
        passages.push(
          ...(await mentionPassages(client, {
            entityId: row.id,
            principal: query.principal,
            limit: evidence,
            score: exactnessScore(row.exactness),
          })),
        );
      }
      return { entities: rows.map(publicEntity), passages: mergePassages(passages) };
    });
  }

  neighbours(query: NeighbourQuery): Promise<Neighbourhood | undefined> {
    return this.#tx("traverse the entity graph", principalScope(query.principal), async (client) => {
      const root = await resolveEntity(client, query.entity, query.principal);
      if (!root) return undefined;
      const { reached, hops } = await traverseAsync(
        walk({
          root: root.id,
          depth: clamp(query.depth, 1, 3),
          perEntity: clamp(query.limit ?? DEFAULT_NEIGHBOURS, 1, 50),
        }),
        (request) => expand(client, { ...request, principal: query.principal }),
      );
      const stats = await entityStats(client, [...reached.keys()], query.principal);
      const evidence = clamp(query.evidence ?? DEFAULT_EVIDENCE, 0, 10);
      const edges: (GraphEdge & { depth: number })[] = [];
      const passages: Passage[] = [];
      for (const hop of hops) {
        const found = await edgeWithPassages(client, hop, stats, {
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
      return { root: publicEntity(stats.get(root.id) ?? root), entities, edges, passages: mergePassages(passages) };
    });
  }

  path(query: PathQuery): Promise<GraphPath | undefined> {
    return this.#tx("find a path in the entity graph", principalScope(query.principal), async (client) => {
      const from = await resolveEntity(client, query.from, query.principal);
      const to = await resolveEntity(client, query.to, query.principal);
      if (!from || !to) return undefined;
      const found = await traverseAsync(
        shortestPath({ from: from.id, to: to.id, maxDepth: clamp(query.maxDepth, 1, 5) }),
        (request) => expand(client, { ...request, principal: query.principal }),
      );
      if (!found) return undefined;
      const stats = await entityStats(client, found.ids, query.principal);
      const evidence = clamp(query.evidence ?? DEFAULT_EVIDENCE, 1, 10);
      const edges: GraphEdge[] = [];
      const passages: Passage[] = [];
      for (const hop of found.hops) {
        const edge = await edgeWithPassages(client, hop, stats, { principal: query.principal, evidence, score: 1 });
        if (!edge) return undefined;
        edges.push(edge.edge);
        passages.push(...edge.passages);
      }
      const entities = found.ids.map((id) => stats.get(id)).filter((row): row is EntityRow => row !== undefined);
      if (entities.length !== found.ids.length) return undefined;
      return { entities: entities.map(publicEntity), edges, passages: mergePassages(passages) };
    });
  }
}

/** An edge with its evidence passages (at least one is fetched, to name the chunks that show it). */
async function edgeWithPassages(
  client: pg.ClientBase,
  hop: Hop,
  stats: Map<number, EntityRow>,
  options: { principal: Principal; evidence: number; score: number },
): Promise<{ edge: GraphEdge; passages: Passage[] } | undefined> {
  if (!stats.has(hop.src) || !stats.has(hop.dst)) return undefined;
  const shown = await edgePassages(client, {
    a: hop.src,
    b: hop.dst,
    principal: options.principal,
    limit: Math.max(1, options.evidence),
    score: options.score,
  });
  return edgeOf(hop, stats, shown, options.evidence);
}
