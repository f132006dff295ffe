import type { ChunkRecord, DocumentRecord, DocumentWrite } from "./document.js";
import type { GraphStoreV1 } from "./graph.js";
import type { Passage } from "./passage.js";
import type { Principal } from "./principal.js";
import type { SourceInfo, SourceRecord, TableSchema } from "./source.js";

/** Filters every read applies inside the query, never after it. */
export interface SearchFilter {
  principal: Principal;
  /** Restrict to these source names; absent or empty means all the principal may read. */
  sources?: string[];
  /** Restrict to one document. */
  docId?: string;
  /** Restrict to these documents (a hierarchical search's second pass); honoured by `keywordSearch`. */
  docIds?: string[];
  /** Only documents with updated_at on or after this ISO date. */
  since?: string;
  k: number;
}

export interface KeywordQuery extends SearchFilter {
  /** Already-normalised terms (lower case, segmented); the store ORs them and ranks with BM25. */
  terms: string[];
}

export interface VectorQuery extends SearchFilter {
  vector: Float32Array;
  /** `exact` scans every vector; `approximate` uses the HNSW side index where one exists. */
  strategy?: "exact" | "approximate" | "auto";
}

/** A scored chunk as the store returns it: `score` is the raw measure (BM25 relevance, cosine similarity). */
export interface ScoredChunk extends Passage {
  raw: number;
}

/** A document found by `documentSearch` (title, headings, opening); `raw` is the BM25 relevance. */
export interface ScoredDocument {
  docId: string;
  source: string;
  title: string;
  updatedAt?: string;
  raw: number;
}

export interface TableWrite {
  tenant: string;
  source: string;
  schema: TableSchema;
  rows: Record<string, string | number | null>[];
}

export interface SqlResult {
  columns: string[];
  rows: Record<string, unknown>[];
  /** More rows matched than came back: `truncatedBy` says which cap cut them. */
  truncated: boolean;
  /** `rows`: the row cap (`maxRows`); `bytes`: the result-size cap of the adapter. */
  truncatedBy?: "rows" | "bytes";
  /** How many values were cut to the adapter's cell-size cap. */
  clippedCells?: number;
}

export interface SqlQueryOptions {
  /** Most rows to return (default 200). */
  maxRows?: number;
  /** The query is stopped and the call rejects with `SqlTimeoutError` after this long (default 5,000 ms). */
  timeoutMs?: number;
  /** Aborting stops the query at once; the call rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Stored record of one agent run (its trace). */
export interface RunRecord {
  runId: string;
  tenant: string;
  user: string;
  question: string;
  startedAt: string;
  /** The trace events and the final answer, as JSON. */
  events: unknown[];
  answer?: unknown;
}

export interface SessionTurn {
  role: "user" | "assistant";
  content: string;
  at: string;
}

export interface StoreV1 {
  readonly specificationVersion: "v1";
  /** `sqlite`, `postgres`, ... */
  readonly provider: string;

  // sources
  putSource(source: SourceRecord): Promise<void>;
  /** Sources the principal may read, with document and chunk counts. */
  listSources(principal: Principal): Promise<SourceInfo[]>;
  removeSource(tenant: string, name: string): Promise<void>;
  /** Tenants that have at least one source (for choosing whose data an unnamed local owner sees). */
  tenants?(): Promise<string[]>;

  // documents
  /** docId -> contentHash for every document of a source. */
  documentHashes(tenant: string, source: string): Promise<Map<string, string>>;
  /** Replaces each document (and its chunks) atomically; the batch commits as one transaction. */
  writeDocuments(batch: DocumentWrite[]): Promise<void>;
  removeDocuments(tenant: string, docIds: string[]): Promise<void>;
  getDocument(docId: string, principal: Principal): Promise<DocumentRecord | undefined>;
  getChunks(ids: string[], principal: Principal): Promise<ChunkRecord[]>;

  // retrieval
  keywordSearch(query: KeywordQuery): Promise<ScoredChunk[]>;
  vectorSearch(query: VectorQuery): Promise<ScoredChunk[]>;
  /** Optional document-level keyword pass over title, headings and opening paragraph, ACL-filtered like chunks. */
  documentSearch?(query: KeywordQuery): Promise<ScoredDocument[]>;

  /** The entity graph, when the adapter keeps one (mentions ride on `ChunkRecord.entities`). */
  readonly graph?: GraphStoreV1;

  // tables (table sources are real SQL tables)
  writeTable(table: TableWrite): Promise<void>;
  /**
   * Read-only SQL over the tables the principal may read, run where it can be stopped. Rejects with
   * `SqlRejectedError` (not one read-only SELECT), `SqlInvalidError` (unknown table or column, bad syntax),
   * `SqlTimeoutError` or `SqlLimitError`.
   */
  querySql(sql: string, principal: Principal, options?: SqlQueryOptions): Promise<SqlResult>;

  // embeddings
  /** The embedder that built the vectors (`id`, `dimensions`), if any. */
  embedderInfo(tenant: string): Promise<{ id: string; dimensions: number } | undefined>;
  setEmbedderInfo(tenant: string, info: { id: string; dimensions: number }): Promise<void>;
  cachedEmbeddings(model: string, hashes: string[]): Promise<Map<string, Float32Array>>;
  cacheEmbeddings(model: string, entries: Map<string, Float32Array>): Promise<void>;

  // runs and sessions
  saveRun(run: RunRecord): Promise<void>;
  getRun(runId: string, principal: Principal): Promise<RunRecord | undefined>;
  appendTurns(sessionId: string, principal: Principal, turns: SessionTurn[]): Promise<void>;
  getTurns(sessionId: string, principal: Principal): Promise<SessionTurn[]>;

  close(): Promise<void>;
}
