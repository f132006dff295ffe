import type { Passage } from "./passage.js";
import type { Principal } from "./principal.js";
import type { GraphCapabilityV1, StoreBaseV1 } from "./store.js";

/**
 * The entity graph: an optional capability of a store, reached as `store.graph` (see `graphOf`).
 *
 * Nodes are entities keyed by `entityKey` (case-folded, whitespace collapsed) within a tenant. Ingest
 * records each chunk's entity mentions on `ChunkRecord.entities`, and the store writes them in the same
 * transaction as the chunk, so a document's mentions are replaced with the document and removed with it.
 * An edge between two entities is the set of chunks that mention both: `co-occurs`, or `defines` when one
 * side comes from the document's title (the document that defines the entity). Edges are never stored
 * apart from their chunks, so every read is filtered by tenant and ACL exactly like a search: an entity
 * or an edge is visible only through chunks the principal may read.
 */

/** Entity kinds: those `extractEntities` finds, plus `title` for a document's own title. */
export type GraphEntityType = "identifier" | "path" | "ip" | "email" | "code" | "quoted" | "name" | "title";

/** `defines`: the mention comes from the document's title, so the document is about (defines) the entity. */
export type MentionRole = "mention" | "defines";

export interface GraphEntity {
  /** Normalised key (`entityKey`): the node's identity. */
  key: string;
  /** The entity as first written. */
  text: string;
  type: GraphEntityType;
  /** Readable chunks that mention it. */
  mentions: number;
  /** Readable documents that mention it. */
  documents: number;
}

export interface GraphEdge {
  /** Entity keys. */
  from: string;
  to: string;
  kind: "co-occurs" | "defines";
  /** Readable chunks that show the edge. */
  weight: number;
  /** Some of those chunks (the evidence), at most a few. */
  chunkIds: string[];
}

export interface EntityQuery {
  /** Text of the entity (any case or spacing); matched exactly first, then as a prefix, then inside keys. */
  value: string;
  type?: GraphEntityType;
  principal: Principal;
  /** Entities to return. */
  k: number;
  /** Evidence passages per entity; default 2. */
  evidence?: number;
}

export interface EntityMatches {
  entities: GraphEntity[];
  /** Chunks mentioning the entities found, best entity first; score 1 for an exact match, less for partial. */
  passages: Passage[];
}

export interface NeighbourQuery {
  /** Entity text or key; resolved like `findEntities` (best visible match). */
  entity: string;
  /** Hops, 1..3. */
  depth: number;
  principal: Principal;
  /** Most neighbours kept per entity expanded, strongest edges first; default 10. */
  limit?: number;
  evidence?: number;
}

export interface Neighbourhood {
  root: GraphEntity;
  /** Entities reached, with the hop at which each was first reached. */
  entities: (GraphEntity & { depth: number })[];
  edges: (GraphEdge & { depth: number })[];
  /** The chunks that show the edges. */
  passages: Passage[];
}

export interface PathQuery {
  from: string;
  to: string;
  /** Most hops, 1..5. */
  maxDepth: number;
  principal: Principal;
  evidence?: number;
}

export interface GraphPath {
  /** From `from` to `to`, in order. */
  entities: GraphEntity[];
  /** `edges[i]` joins `entities[i]` and `entities[i + 1]`. */
  edges: GraphEdge[];
  passages: Passage[];
}

export interface GraphStoreV1 {
  readonly specificationVersion: "v1";
  findEntities(query: EntityQuery): Promise<EntityMatches>;
  /** Undefined when the entity is not visible to the principal. */
  neighbours(query: NeighbourQuery): Promise<Neighbourhood | undefined>;
  /** The shortest path by hops (ties to the strongest edges); undefined when none within maxDepth is visible. */
  path(query: PathQuery): Promise<GraphPath | undefined>;
}

/** The store's entity graph, when it declares the `graph` capability and has one. */
export function graphOf(store: StoreBaseV1 & GraphCapabilityV1): GraphStoreV1 | undefined {
  const graph = store.capabilities.has("graph") ? store.graph : undefined;
  return graph?.specificationVersion === "v1" ? graph : undefined;
}

/** An entity's key: NFKC, case-folded, whitespace collapsed, trimmed. */
export function entityKey(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}
