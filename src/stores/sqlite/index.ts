import type { ChunkRecord, DocumentHeader, DocumentRecord, DocumentWrite } from "../../spec/document.js";
import { StoreError } from "../../spec/errors.js";
import type { Principal } from "../../spec/principal.js";
import type { SourceInfo, SourceRecord } from "../../spec/source.js";
import {
  type DocumentLookup,
  type KeywordQuery,
  type RunListQuery,
  type RunRecord,
  type RunSummary,
  type ScoredChunk,
  type ScoredDocument,
  type SessionTurn,
  type SqlQueryOptions,
  type SqlResult,
  STORE_CAPABILITIES,
  type StoreCapability,
  type StoreV1,
  type TableWrite,
  type VectorQuery,
} from "../../spec/store.js";
import { StoreContext } from "./context.js";
import { dataVersion } from "./data-version.js";
import { documentSearch } from "./doc-index.js";
import * as documents from "./documents.js";
import { cachedEmbeddings, cacheEmbeddings } from "./embedding-cache.js";
import { SqliteGraph, writeDocumentsWithEntities } from "./graph.js";
import { HnswIndexes } from "./hnsw.js";
import { SqliteKeys } from "./keys.js";
import { keywordSearch } from "./keyword-search.js";
import { getChunks, getDocument, getDocumentHeader } from "./reads.js";
import { getRun, listRuns, saveRun } from "./runs.js";
import { openDatabase } from "./schema.js";
import { appendTurns, getTurns } from "./sessions.js";
import { listSources, putSource, removeSource } from "./sources.js";
import { SqliteSpend } from "./spend.js";
import { sqliteDialect } from "./sql-dialect.js";
import { SqlQueries } from "./sql-query.js";
import type { SqlLimits } from "./sql-runner.js";
import { toStoreError } from "./sqlite-errors.js";
import { removeTables, writeTable } from "./tables.js";
import { vectorSearch } from "./vector-search.js";
import { type EmbedderInfo, getEmbedderInfo, setEmbedderInfo, type VectorChanges } from "./vectors.js";

export interface SqliteStoreOptions {
  /** Database file; parent folders are created. `:memory:` works too (nothing is saved). */
  path: string;
  /** `auto` vector search switches to the HNSW side index at this many vectors in a tenant. Default 20,000. */
  hnswThreshold?: number;
  /** Open an existing store without writing to it. */
  readonly?: boolean;
  /** Caps on `querySql` beyond its rows and time: result bytes, cell size, working memory, parallel runners. */
  sql?: Partial<SqlLimits>;
}

export const DEFAULT_HNSW_THRESHOLD = 20_000;
const SOURCES_CACHE_SIZE = 256;

/** The embedded store: one SQLite file with FTS5, sqlite-vec, an HNSW side index and table sources. */
export class SqliteStore implements StoreV1 {
  readonly specificationVersion = "v1" as const;
  readonly provider = "sqlite";
  /** Every capability: documents, keyword and vector search, tables, graph, sessions, runs, keys and spend. */
  readonly capabilities: ReadonlySet<StoreCapability> = new Set(STORE_CAPABILITIES);
  readonly sqlDialect = sqliteDialect;
  readonly path: string;
  readonly #ctx: StoreContext;
  readonly #hnsw: HnswIndexes;
  readonly #sql: SqlQueries;
  readonly #hnswThreshold: number;
  /** listSources answers per principal, valid while the tenant's data version stands (it counts every chunk). */
  readonly #sourcesCache = new Map<string, { version: number; sources: SourceInfo[] }>();
  #closed = false;
  /** The entity graph (`GraphStoreV1`): mentions ride on `ChunkRecord.entities` and are written with the chunks. */
  readonly graph = new SqliteGraph((operation, fn) => this.#run(operation, fn));
  /** API keys (`KeyStoreV1`), stored hashed. */
  readonly keys = new SqliteKeys((operation, fn) => this.#run(operation, fn));
  /** Daily spend per tenant and key (`SpendStoreV1`). */
  readonly spend = new SqliteSpend((operation, fn) => this.#run(operation, fn));

  constructor(options: SqliteStoreOptions) {
    const readonly = options.readonly ?? false;
    this.path = options.path;
    this.#ctx = new StoreContext({ db: openDatabase({ path: options.path, readonly }), path: options.path, readonly });
    this.#hnswThreshold = options.hnswThreshold ?? DEFAULT_HNSW_THRESHOLD;
    this.#hnsw = new HnswIndexes(this.#ctx, { buildAt: this.#hnswThreshold });
    this.#sql = new SqlQueries(this.#ctx, options.sql);
  }

  /**
   * Runs a synchronous operation, turning driver failures into typed store errors (`StoreBusyError`,
   * `StoreFullError`, ... see `sqlite-errors.ts`); ferret errors pass through.
   */
  #run<T>(operation: string, fn: (ctx: StoreContext) => T): Promise<T> {
    if (this.#closed) return Promise.reject(new StoreError(`Cannot ${operation}: the store is closed.`));
    try {
      return Promise.resolve(fn(this.#ctx));
    } catch (error) {
      return Promise.reject(toStoreError(error, { operation }));
    }
  }

  #vectorsChanged(result: { changes: VectorChanges; versions: Map<number, number> }): void {
    this.#hnsw.apply(result.changes, result.versions);
  }

  putSource(source: SourceRecord): Promise<void> {
    return this.#run("register a source", (ctx) => putSource(ctx, source));
  }

  listSources(principal: Principal): Promise<SourceInfo[]> {
    return this.#run("list sources", (ctx) => {
      const version = dataVersion(ctx, principal.tenant);
      const key = JSON.stringify([principal.tenant, principal.user, principal.roles]);
      const hit = this.#sourcesCache.get(key);
      if (hit?.version === version) return structuredClone(hit.sources);
      const sources = listSources(ctx, principal);
      if (this.#sourcesCache.size >= SOURCES_CACHE_SIZE) this.#sourcesCache.clear();
      this.#sourcesCache.set(key, { version, sources: structuredClone(sources) });
      return sources;
    });
  }

  removeSource(tenant: string, name: string): Promise<void> {
    return this.#run("remove a source", (ctx) => this.#vectorsChanged(removeSource(ctx, tenant, name)));
  }

  documentHashes(tenant: string, source: string): Promise<Map<string, string>> {
    return this.#run("read document hashes", (ctx) => documents.documentHashes(ctx, tenant, source));
  }

  writeDocuments(batch: DocumentWrite[]): Promise<void> {
    return this.#run("write documents", (ctx) =>
      this.#vectorsChanged(writeDocumentsWithEntities(ctx, batch, () => documents.writeDocuments(ctx, batch))),
    );
  }

  removeDocuments(tenant: string, docIds: string[], options: { source: string }): Promise<void> {
    return this.#run("remove documents", (ctx) =>
      this.#vectorsChanged(documents.removeDocuments(ctx, { tenant, source: options.source, docIds })),
    );
  }

  dataVersion(tenant: string): Promise<number> {
    return this.#run("read the data version", (ctx) => dataVersion(ctx, tenant));
  }

  tenants(): Promise<string[]> {
    return this.#run("list tenants", (ctx) =>
      (ctx.stmt("SELECT DISTINCT tenant FROM sources ORDER BY tenant").all() as { tenant: string }[]).map(
        (r) => r.tenant,
      ),
    );
  }

  getDocument(docId: string, principal: Principal, options?: DocumentLookup): Promise<DocumentRecord | undefined> {
    return this.#run("read a document", (ctx) => getDocument(ctx, docId, principal, options));
  }

  getDocumentHeader(
    docId: string,
    principal: Principal,
    options?: DocumentLookup,
  ): Promise<DocumentHeader | undefined> {
    return this.#run("read a document", (ctx) => getDocumentHeader(ctx, docId, principal, options));
  }

  getChunks(ids: string[], principal: Principal, options?: DocumentLookup): Promise<ChunkRecord[]> {
    return this.#run("read chunks", (ctx) => getChunks(ctx, ids, principal, options));
  }

  keywordSearch(query: KeywordQuery): Promise<ScoredChunk[]> {
    return this.#run("search keywords", (ctx) => keywordSearch(ctx, query));
  }

  documentSearch(query: KeywordQuery): Promise<ScoredDocument[]> {
    return this.#run("search documents", (ctx) => documentSearch(ctx, query));
  }

  vectorSearch(query: VectorQuery): Promise<ScoredChunk[]> {
    return this.#run("search vectors", (ctx) =>
      vectorSearch(ctx, query, { hnsw: this.#hnsw, hnswThreshold: this.#hnswThreshold }),
    );
  }

  writeTable(table: TableWrite): Promise<{ name: string }> {
    return this.#run("write a table", (ctx) => writeTable(ctx, table));
  }

  removeTables(tenant: string, source: string, keep: string[]): Promise<void> {
    return this.#run("remove tables", (ctx) => removeTables(ctx, { tenant, source, keep }));
  }

  /** Runs in a runner process that is killed at the time limit or on abort (see `sql-query.ts`). */
  querySql(sql: string, principal: Principal, options?: SqlQueryOptions): Promise<SqlResult> {
    if (this.#closed) return Promise.reject(new StoreError("Cannot query tables: the store is closed."));
    return this.#sql.query(sql, principal, options);
  }

  /** Process ids of the live SQL runners (for tests and diagnostics). */
  sqlRunnerPids(): number[] {
    return this.#sql.runners.pids();
  }

  embedderInfo(tenant: string): Promise<EmbedderInfo | undefined> {
    return this.#run("read the embedder", (ctx) => getEmbedderInfo(ctx, tenant));
  }

  setEmbedderInfo(tenant: string, info: EmbedderInfo): Promise<void> {
    return this.#run("record the embedder", (ctx) => {
      ctx.assertWritable("record the embedder");
      setEmbedderInfo(ctx, tenant, info);
    });
  }

  cachedEmbeddings(model: string, hashes: string[]): Promise<Map<string, Float32Array>> {
    return this.#run("read cached embeddings", (ctx) => cachedEmbeddings(ctx, model, hashes));
  }

  cacheEmbeddings(model: string, entries: Map<string, Float32Array>): Promise<void> {
    return this.#run("cache embeddings", (ctx) => cacheEmbeddings(ctx, model, entries));
  }

  saveRun(run: RunRecord): Promise<void> {
    return this.#run("save a run", (ctx) => saveRun(ctx, run));
  }

  getRun(runId: string, principal: Principal): Promise<RunRecord | undefined> {
    return this.#run("read a run", (ctx) => getRun(ctx, runId, principal));
  }

  listRuns(principal: Principal, query?: RunListQuery): Promise<RunSummary[]> {
    return this.#run("list runs", (ctx) => listRuns(ctx, principal, query));
  }

  appendTurns(sessionId: string, principal: Principal, turns: SessionTurn[]): Promise<void> {
    return this.#run("append session turns", (ctx) => appendTurns(ctx, sessionId, principal, turns));
  }

  getTurns(sessionId: string, principal: Principal): Promise<SessionTurn[]> {
    return this.#run("read session turns", (ctx) => getTurns(ctx, sessionId, principal));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#hnsw.flush();
    } finally {
      this.#sql.close();
      this.#ctx.db.close();
    }
  }
}

/** Opens (creating when needed) the SQLite store at `path`. */
export async function createSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  return new SqliteStore(options);
}
