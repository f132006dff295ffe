import type { ChunkRecord, DocumentHeader, DocumentRecord, DocumentWrite } from "./document.js";
import type { GraphStoreV1 } from "./graph.js";
import type { KeyStoreV1, SpendStoreV1 } from "./keys.js";
import type { Passage } from "./passage.js";
import type { Principal } from "./principal.js";
import type { SourceInfo, SourceRecord, TableSchema } from "./source.js";
import type { SqlDialect } from "./sql-dialect.js";

/** Filters every read applies inside the query, never after it. */
export interface SearchFilter {
  principal: Principal;
  /** Restrict to these source names; absent or empty means all the principal may read. */
  sources?: string[];
  /**
   * Restrict to one document. Ids are unique per source, not per tenant: pair it with `sources: [source]` to
   * name one document where two sources hold the same id.
   */
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

/**
 * One file's rows as an SQL table. A table is identified by (tenant, source, file); `schema.name` is the SQL
 * name wanted for it. Writing a file's table again replaces it and keeps its name; a new table whose wanted
 * name is taken in the tenant gets the first free `<name>_2`, `<name>_3`, ... (`writeTable` returns the name).
 */
export interface TableWrite {
  tenant: string;
  source: string;
  /** The file the rows came from, relative to the ingest root: row ids are `<file>#<primary key>`. */
  file: string;
  schema: TableSchema;
  rows: Record<string, string | number | null>[];
}

/** Which document an id lookup means: ids are unique per source, so the same id may exist in two sources. */
export interface DocumentLookup {
  /**
   * The document's source. Without it, an id held by several sources the principal may read resolves to the
   * one whose source name sorts first (binary order), so the answer is deterministic.
   */
  source?: string;
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
  /** Names of the sources the run's principal could read when it ran (to re-check a reader's rights later). */
  sources?: string[];
  /** Set when the record was redacted for its reader (see `readableRun`): how many passages were hidden. */
  redacted?: { passages: number };
}

/** A run as a listing shows it: who asked what, when, and how it ended (no answer text, no evidence). */
export interface RunSummary {
  runId: string;
  tenant: string;
  user: string;
  question: string;
  startedAt: string;
  /** From the saved answer; absent for a run saved without one. */
  status?: "answered" | "partial" | "refused";
  stopReason?: string;
  costUsd?: number;
  latencyMs?: number;
}

/** Which runs to list: newest first, `limit` at most (default 50, at most 200), started before `before`. */
export interface RunListQuery {
  limit?: number;
  /** ISO time: only runs started strictly before it (the `startedAt` of the last run of the previous page). */
  before?: string;
  status?: RunSummary["status"];
  stopReason?: string;
  /** Only this user's runs (an owner, holding `*`, sees every user of the tenant; others only themselves). */
  user?: string;
}

export interface SessionTurn {
  role: "user" | "assistant";
  content: string;
  at: string;
}

/**
 * What a store can do, one name per capability interface below. A store lists the ones it has in
 * `capabilities`, and code that needs an optional one asks for it (`hasCapability`, `tableStoreOf`,
 * `graphOf`, `keyStoreOf`, ...) rather than for a kind of store. Each capability has its own conformance
 * suite in `ferret/testing`.
 */
export type StoreCapability =
  | "documents"
  | "keyword"
  | "vector"
  | "tables"
  | "graph"
  | "sessions"
  | "runs"
  | "keys"
  | "spend";

export const STORE_CAPABILITIES: readonly StoreCapability[] = [
  "documents",
  "keyword",
  "vector",
  "tables",
  "graph",
  "sessions",
  "runs",
  "keys",
  "spend",
];

/** What every store has: its version, a name for messages, its capabilities and a way to close it. */
export interface StoreBaseV1 {
  readonly specificationVersion: "v1";
  /** A name for messages and logs (`sqlite`, `postgres`, ...): never a switch; ask for capabilities instead. */
  readonly provider: string;
  readonly capabilities: ReadonlySet<StoreCapability>;
  close(): Promise<void>;
}

/** `documents`: sources, documents and their chunks, and the data version caches key on. */
export interface DocumentStoreV1 {
  putSource(source: SourceRecord): Promise<void>;
  /** Sources the principal may read, with document and chunk counts. */
  listSources(principal: Principal): Promise<SourceInfo[]>;
  removeSource(tenant: string, name: string): Promise<void>;
  /** Tenants that have at least one source (for choosing whose data an unnamed local owner sees). */
  tenants?(): Promise<string[]>;
  /** docId -> contentHash for every document of a source. */
  documentHashes(tenant: string, source: string): Promise<Map<string, string>>;
  /**
   * Replaces each document (and its chunks) atomically; the batch commits as one transaction. A document is
   * identified by (tenant, source, id): the same id in another source is another document.
   */
  writeDocuments(batch: DocumentWrite[]): Promise<void>;
  /** Removes these documents of one source (the same ids in other sources stay). */
  removeDocuments(tenant: string, docIds: string[], options: { source: string }): Promise<void>;
  getDocument(docId: string, principal: Principal, options?: DocumentLookup): Promise<DocumentRecord | undefined>;
  /**
   * The same document as `getDocument`, by the same rules, without its text: for callers that need only its
   * metadata (a PDF's page starts, a loader's locator), so a long document is not read whole for them.
   */
  getDocumentHeader(docId: string, principal: Principal, options?: DocumentLookup): Promise<DocumentHeader | undefined>;
  /** Chunks by id, in the order asked; see `DocumentLookup` for ids held by several sources. */
  getChunks(ids: string[], principal: Principal, options?: DocumentLookup): Promise<ChunkRecord[]>;
  /**
   * A number that changes whenever what the tenant's principals can read changes (documents written or
   * removed, a source's ACL or description changed, a source removed, a table written or dropped), in this
   * process or any other sharing the store. Caches put it in their keys. Must be cheap (one indexed read).
   */
  dataVersion(tenant: string): Promise<number>;
}

/** `keyword`: BM25 over the chunks' search text (and, optionally, over documents' titles and openings). */
export interface KeywordSearchStoreV1 {
  keywordSearch(query: KeywordQuery): Promise<ScoredChunk[]>;
  /** Optional document-level keyword pass over title, headings and opening paragraph, ACL-filtered like chunks. */
  documentSearch?(query: KeywordQuery): Promise<ScoredDocument[]>;
}

/** `vector`: nearest chunks by cosine similarity, the embedder the vectors came from, and the embedding cache. */
export interface VectorSearchStoreV1 {
  vectorSearch(query: VectorQuery): Promise<ScoredChunk[]>;
  /** The embedder that built the vectors (`id`, `dimensions`), if any. */
  embedderInfo(tenant: string): Promise<{ id: string; dimensions: number } | undefined>;
  setEmbedderInfo(tenant: string, info: { id: string; dimensions: number }): Promise<void>;
  cachedEmbeddings(model: string, hashes: string[]): Promise<Map<string, Float32Array>>;
  cacheEmbeddings(model: string, entries: Map<string, Float32Array>): Promise<void>;
}

/** `tables`: each CSV file a real SQL table (a source may hold several), and read-only SQL over them. */
export interface TableStoreV1 {
  /** The SQL this store's `querySql` speaks where databases differ (dates, case, aggregates). */
  readonly sqlDialect: SqlDialect;
  /** Creates or replaces one file's table; returns the SQL name it has (see `TableWrite`). */
  writeTable(table: TableWrite): Promise<{ name: string }>;
  /** Drops the source's tables whose file is not in `keep` (a pruned or replaced file). */
  removeTables(tenant: string, source: string, keep: string[]): Promise<void>;
  /**
   * Read-only SQL over the tables the principal may read, run where it can be stopped. Rejects with
   * `SqlRejectedError` (not one read-only SELECT), `SqlInvalidError` (unknown table or column, bad syntax),
   * `SqlTimeoutError` or `SqlLimitError`: never with a driver's own error.
   */
  querySql(sql: string, principal: Principal, options?: SqlQueryOptions): Promise<SqlResult>;
}

/** `graph`: the entity graph (mentions ride on `ChunkRecord.entities`); see `graphOf`. */
export interface GraphCapabilityV1 {
  readonly graph?: GraphStoreV1;
}

/** `sessions`: the turns of a conversation, per principal. */
export interface SessionStoreV1 {
  appendTurns(sessionId: string, principal: Principal, turns: SessionTurn[]): Promise<void>;
  getTurns(sessionId: string, principal: Principal): Promise<SessionTurn[]>;
}

/** `runs`: stored runs (traces and answers). */
export interface RunStoreV1 {
  saveRun(run: RunRecord): Promise<void>;
  /**
   * The stored run, when it is of the principal's tenant and theirs (or the principal holds `*`). This is the
   * raw record: what it shows must be re-checked against the reader's current rights before it is shown
   * (`readableRun` in trace/, which `Ferret.trace` applies).
   */
  getRun(runId: string, principal: Principal): Promise<RunRecord | undefined>;
  /** The runs `getRun` would show the principal, newest first (optional: stores without it cannot list). */
  listRuns?(principal: Principal, query?: RunListQuery): Promise<RunSummary[]>;
}

/** `keys` and `spend`: API keys and daily spend records (see `keyStoreOf`, `spendStoreOf`). */
export interface KeyCapabilityV1 {
  readonly keys?: KeyStoreV1;
  readonly spend?: SpendStoreV1;
}

/**
 * The whole store contract: every capability at once. Code that needs only some takes the narrower
 * interfaces; a store that lacks one still implements its methods (rejecting with `StoreError`) and leaves it
 * out of `capabilities`, so callers ask before they use it.
 */
export interface StoreV1
  extends StoreBaseV1,
    DocumentStoreV1,
    KeywordSearchStoreV1,
    VectorSearchStoreV1,
    TableStoreV1,
    GraphCapabilityV1,
    SessionStoreV1,
    RunStoreV1,
    KeyCapabilityV1 {}

/** Does the store declare this capability? */
export function hasCapability(store: Pick<StoreBaseV1, "capabilities">, capability: StoreCapability): boolean {
  return store.capabilities.has(capability);
}

/** The store's table capability (SQL tables, read-only SQL and its dialect), when it declares one. */
export function tableStoreOf(store: StoreBaseV1 & Partial<TableStoreV1>): TableStoreV1 | undefined {
  if (!hasCapability(store, "tables") || store.sqlDialect === undefined) return undefined;
  return store as StoreBaseV1 & TableStoreV1;
}
