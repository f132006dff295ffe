import pg from "pg";
import type { ChunkRecord, DocumentHeader, DocumentRecord, DocumentWrite } from "../../spec/document.js";
import { StoreError } from "../../spec/errors.js";
import type { Principal } from "../../spec/principal.js";
import type { SourceInfo, SourceRecord } from "../../spec/source.js";
import type {
  DocumentLookup,
  KeywordQuery,
  RunListQuery,
  RunRecord,
  RunSummary,
  ScoredChunk,
  ScoredDocument,
  SessionTurn,
  SqlQueryOptions,
  SqlResult,
  StoreCapability,
  StoreV1,
  TableWrite,
  VectorQuery,
} from "../../spec/store.js";
import { STORE_CAPABILITIES } from "../../spec/store.js";
import type { SqlDialect } from "../dialect.js";
import type { SpendRow } from "../spend-entry.js";
import { PgDb, principalScope, quoteIdent, redactUrl, type Scope, setScope, toStoreError, writeScope } from "./db.js";
import { postgresDialect } from "./dialect.js";
import * as documents from "./documents.js";
import { PgGraph } from "./graph.js";
import { keywordTop } from "./keyword-top.js";
import * as records from "./records.js";
import { type MissingFeature, setupDatabase, type TextMatch, type VectorFeatures } from "./schema.js";
import * as search from "./search.js";
import * as tables from "./tables.js";

/** Row counts of a store, summed over tenants: what `ferret migrate` compares. */
export interface StoreCounts {
  sources: number;
  documents: number;
  chunks: number;
  vectors: number;
  tables: number;
  tableRows: number;
  entities: number;
  mentions: number;
  runs: number;
  turns: number;
  apiKeys: number;
}

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database`. */
  url: string;
  /**
   * A read-only replica of `url` (streaming replication): keyword, document and vector search and `run_sql`
   * read there, everything else (writes, runs, sessions, keys) goes to `url`. Searches see a write once the
   * replica has replayed it. Default: `url` for everything.
   */
  readUrl?: string;
  /** Most pooled connections (default 10). */
  poolSize?: number;
  /** `auto` vector search uses the HNSW index at this many vectors in a tenant. Default 20,000. */
  hnswThreshold?: number;
  /**
   * Candidates an HNSW search keeps (pgvector's `hnsw.ef_search`, 1 to 1000): more finds more of the exact
   * top k and costs time. A search keeps at least twice its k. Default 300 (pgvector's own default, 40, found
   * under half of the exact top 10 on the bench's vectors).
   */
  hnswEfSearch?: number;
  /** Told once at start about each feature that is off (missing extension, role), with how to enable it. */
  onWarning?: (message: string) => void;
}

/** True for a `postgres://` or `postgresql://` URL (how `--db` and FERRET_DB name a PostgreSQL store). */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/**
 * The PostgreSQL store: documents, chunks, vectors (pgvector HNSW, cosine), keyword search (the SQLite store's
 * bm25 computed from tsvectors of the same segmented text, see bm25.ts), table sources as real tables in a schema per
 * tenant, the entity graph, runs, sessions, keys and spend. Every transaction sets the tenant and roles that
 * the row-level-security policies read, and the policies are FORCEd, so a query that forgot its tenant
 * predicate still sees only that tenant's rows.
 */
export class PostgresStore implements StoreV1 {
  readonly specificationVersion = "v1" as const;
  readonly provider = "postgres";
  readonly sqlDialect: SqlDialect = postgresDialect;
  readonly capabilities: ReadonlySet<StoreCapability> = new Set(STORE_CAPABILITIES);
  /** Features that are off on this server, with how to enable them (also sent to `onWarning`). */
  readonly missing: readonly MissingFeature[];
  /**
   * Whether pg_textsearch's bm25 index is built on this server. It names an index, not the ranking: keyword
   * search ranks with the SQLite store's bm25 either way (bm25.ts).
   */
  get textsearchIndex(): boolean {
    return this.#bm25;
  }
  /** Whether keyword matching can use its GIN index under row-level security (the leakproof `ferret.@@`). */
  get indexedKeywordMatch(): boolean {
    return this.#match !== "@@";
  }
  readonly graph: PgGraph;
  readonly keys: records.PgKeys;
  readonly spend: records.PgSpend;
  readonly #db: PgDb;
  /** Where searches and SQL read: the replica's pool, or `#db`. */
  readonly #read: PgDb;
  readonly #vector: boolean;
  /** What the server's pgvector can do (HNSW, iterative scans), by its version. */
  readonly vectorFeatures: VectorFeatures;
  readonly #bm25: boolean;
  readonly #match: TextMatch;
  readonly #sqlRole: string | undefined;
  readonly #hnswThreshold: number;
  readonly #hnswEfSearch: number;
  readonly #indexed = new Set<number>();
  /** Chunks written through this store, and the count at which writeDocuments next runs ANALYZE. */
  #written = 0;
  #analyzeAt = 1000;
  #closed = false;

  constructor(
    db: PgDb,
    setup: {
      vector: boolean;
      vectorFeatures?: VectorFeatures;
      textsearch: boolean;
      match?: TextMatch;
      sqlRole?: string;
      missing: MissingFeature[];
    },
    options: PostgresStoreOptions,
    read: PgDb = db,
  ) {
    this.#db = db;
    this.#read = read;
    this.#vector = setup.vector;
    this.vectorFeatures = setup.vectorFeatures ?? { hnsw: false, iterativeScan: false };
    this.#bm25 = setup.textsearch;
    this.#match = setup.match ?? "@@";
    this.#sqlRole = setup.sqlRole;
    this.missing = setup.missing;
    this.#hnswThreshold = options.hnswThreshold ?? 20_000;
    const ef = options.hnswEfSearch ?? search.DEFAULT_EF_SEARCH;
    if (!Number.isInteger(ef) || ef < 1 || ef > search.MAX_EF_SEARCH)
      throw new RangeError(`hnswEfSearch must be an integer from 1 to ${search.MAX_EF_SEARCH}, got ${ef}`);
    this.#hnswEfSearch = ef;
    const tx = <T>(operation: string, scope: Scope, fn: (client: pg.PoolClient) => Promise<T>) =>
      this.#tx(operation, scope, fn);
    this.graph = new PgGraph(tx);
    this.keys = new records.PgKeys(tx);
    this.spend = new records.PgSpend(tx);
  }

  /** The server's URL without its password. */
  get url(): string {
    return redactUrl(this.#db.url);
  }

  #tx<T>(operation: string, scope: Scope, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new StoreError(`Cannot ${operation}: the store is closed.`));
    return this.#db.tx(operation, scope, fn);
  }

  /** A read-only transaction where searches read (the replica when there is one). */
  #readTx<T>(operation: string, scope: Scope, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new StoreError(`Cannot ${operation}: the store is closed.`));
    return this.#read.tx(operation, scope, fn);
  }

  /** The replica's URL without its password, when searches read from one. */
  get readUrl(): string | undefined {
    return this.#read === this.#db ? undefined : redactUrl(this.#read.url);
  }

  putSource(source: SourceRecord): Promise<void> {
    return this.#tx("register a source", writeScope(source.tenant), (c) => documents.putSource(c, source));
  }

  listSources(principal: Principal): Promise<SourceInfo[]> {
    return this.#tx("list sources", principalScope(principal), (c) => documents.listSources(c, principal));
  }

  removeSource(tenant: string, name: string): Promise<void> {
    return this.#tx("remove a source", writeScope(tenant), (c) => documents.removeSource(c, tenant, name));
  }

  tenants(): Promise<string[]> {
    return this.#tx("list tenants", { allTenants: true }, async (c) =>
      (
        await c.query<{ tenant: string }>('SELECT tenant FROM sources GROUP BY tenant ORDER BY tenant COLLATE "C"')
      ).rows.map((r) => r.tenant),
    );
  }

  documentHashes(tenant: string, source: string): Promise<Map<string, string>> {
    return this.#tx("read document hashes", writeScope(tenant), (c) => documents.documentHashes(c, tenant, source));
  }

  async writeDocuments(batch: DocumentWrite[]): Promise<void> {
    if (batch.length === 0) return;
    const first = batch[0]?.doc.tenant ?? "";
    await this.#tx("write documents", writeScope(first), async (c) => {
      await lockDocuments(c, batch);
      await documents.writeDocuments(c, batch, {
        hnsw: this.#vector && this.vectorFeatures.hnsw,
        indexed: this.#indexed,
        setTenant: (tenant) => setScope(c, writeScope(tenant)),
      });
    });
    this.#written += batch.reduce((n, w) => n + w.chunks.length, 0);
    if (this.#written >= this.#analyzeAt) {
      while (this.#analyzeAt <= this.#written) this.#analyzeAt *= 2;
      await this.analyze();
    }
  }

  /**
   * Refreshes the planner's statistics of the document and chunk tables. Without them a table filled since
   * the last ANALYZE looks empty and the planner picks nested loops over every chunk (seconds per search at a
   * few thousand chunks); writeDocuments calls it as the store grows (at 1k, 2k, 4k... chunks written).
   */
  async analyze(): Promise<void> {
    await this.#tx("analyze the tables", {}, async (c) => {
      await c.query("ANALYZE documents");
      await c.query("ANALYZE chunks");
    });
  }

  removeDocuments(tenant: string, docIds: string[], options: { source: string }): Promise<void> {
    return this.#tx("remove documents", writeScope(tenant), (c) =>
      documents.removeDocuments(c, { tenant, source: options.source, docIds }),
    );
  }

  dataVersion(tenant: string): Promise<number> {
    return this.#tx("read the data version", writeScope(tenant), (c) => documents.dataVersion(c, tenant));
  }

  getDocument(docId: string, principal: Principal, options?: DocumentLookup): Promise<DocumentRecord | undefined> {
    return this.#tx("read a document", principalScope(principal), (c) =>
      documents.getDocument(c, docId, principal, options),
    );
  }

  getDocumentHeader(
    docId: string,
    principal: Principal,
    options?: DocumentLookup,
  ): Promise<DocumentHeader | undefined> {
    return this.#tx("read a document", principalScope(principal), (c) =>
      documents.getDocumentHeader(c, docId, principal, options),
    );
  }

  getChunks(ids: string[], principal: Principal, options?: DocumentLookup): Promise<ChunkRecord[]> {
    return this.#tx("read chunks", principalScope(principal), (c) => documents.getChunks(c, ids, principal, options));
  }

  async keywordSearch(query: KeywordQuery): Promise<ScoredChunk[]> {
    if (this.#closed) throw new StoreError("Cannot search keywords: the store is closed.");
    // One statement (keyword-top.ts); a query with a phrase is ranked by the tsvectors in a transaction.
    const top = await this.#read.call("search keywords", (c) => keywordTop(c, query));
    if (top !== undefined) return top;
    return this.#readTx("search keywords", principalScope(query.principal), (c) =>
      search.keywordSearch(c, query, { bm25: this.#bm25, match: this.#match }),
    );
  }

  documentSearch(query: KeywordQuery): Promise<ScoredDocument[]> {
    return this.#readTx("search documents", principalScope(query.principal), (c) =>
      search.documentSearch(c, query, { match: this.#match }),
    );
  }

  vectorSearch(query: VectorQuery): Promise<ScoredChunk[]> {
    if (this.#closed) return Promise.reject(new StoreError("Cannot search vectors: the store is closed."));
    return search.vectorSearch(this.#read, query, {
      vector: this.#vector,
      hnsw: this.vectorFeatures.hnsw,
      iterativeScan: this.vectorFeatures.iterativeScan,
      hnswThreshold: this.#hnswThreshold,
      efSearch: this.#hnswEfSearch,
    });
  }

  writeTable(table: TableWrite): Promise<{ name: string }> {
    return this.#tx("write a table", writeScope(table.tenant), (c) => tables.writeTable(c, table));
  }

  async removeTables(tenant: string, source: string, keep: string[]): Promise<void> {
    await this.#tx("remove tables", writeScope(tenant), (c) => tables.dropTables(c, { tenant, source, keep }));
  }

  querySql(sql: string, principal: Principal, options?: SqlQueryOptions): Promise<SqlResult> {
    if (this.#closed) return Promise.reject(new StoreError("Cannot query tables: the store is closed."));
    return tables.querySql(this.#read, this.#sqlRole, sql, principal, options);
  }

  embedderInfo(tenant: string): Promise<{ id: string; dimensions: number } | undefined> {
    return this.#tx("read the embedder", writeScope(tenant), (c) => documents.getEmbedderInfo(c, tenant));
  }

  setEmbedderInfo(tenant: string, info: { id: string; dimensions: number }): Promise<void> {
    return this.#tx("record the embedder", writeScope(tenant), (c) => documents.setEmbedderInfo(c, tenant, info));
  }

  cachedEmbeddings(model: string, hashes: string[]): Promise<Map<string, Float32Array>> {
    return this.#tx("read cached embeddings", {}, (c) => records.cachedEmbeddings(c, model, hashes));
  }

  cacheEmbeddings(model: string, entries: Map<string, Float32Array>): Promise<void> {
    return this.#tx("cache embeddings", {}, (c) => records.cacheEmbeddings(c, model, entries));
  }

  saveRun(run: RunRecord): Promise<void> {
    return this.#tx("save a run", writeScope(run.tenant), (c) => records.saveRun(c, run));
  }

  getRun(runId: string, principal: Principal): Promise<RunRecord | undefined> {
    return this.#tx("read a run", principalScope(principal), (c) => records.getRun(c, runId, principal));
  }

  listRuns(principal: Principal, query?: RunListQuery): Promise<RunSummary[]> {
    return this.#tx("list runs", principalScope(principal), (c) => records.listRuns(c, principal, query));
  }

  appendTurns(sessionId: string, principal: Principal, turns: SessionTurn[]): Promise<void> {
    return this.#tx("append session turns", principalScope(principal), (c) =>
      records.appendTurns(c, sessionId, principal, turns),
    );
  }

  getTurns(sessionId: string, principal: Principal): Promise<SessionTurn[]> {
    return this.#tx("read session turns", principalScope(principal), (c) => records.getTurns(c, sessionId, principal));
  }

  /** Totals over every tenant (for verifying a copy, see `migrate.ts`). */
  counts(): Promise<StoreCounts> {
    return this.#tx("count the store", { allTenants: true, roles: ["*"] }, async (c) => {
      const n = async (sql: string) => Number((await c.query<{ n: number }>(sql)).rows[0]?.n ?? 0);
      const tables = (
        await c.query<{ schema_name: string; sql_name: string }>("SELECT schema_name, sql_name FROM table_sources")
      ).rows;
      let tableRows = 0;
      for (const t of tables) {
        tableRows += await n(`SELECT count(*) AS n FROM ${quoteIdent(t.schema_name)}.${quoteIdent(t.sql_name)}`);
      }
      return {
        sources: await n("SELECT count(*) AS n FROM sources"),
        documents: await n("SELECT count(*) AS n FROM documents"),
        chunks: await n("SELECT count(*) AS n FROM chunks"),
        vectors: await n("SELECT count(*) AS n FROM chunks WHERE dims IS NOT NULL"),
        tables: tables.length,
        tableRows,
        entities: await n("SELECT count(DISTINCT entity_id) AS n FROM graph_mentions"),
        mentions: await n("SELECT count(*) AS n FROM graph_mentions"),
        runs: await n("SELECT count(*) AS n FROM runs"),
        turns: await n("SELECT count(*) AS n FROM turns"),
        apiKeys: await n("SELECT count(*) AS n FROM api_keys"),
      };
    });
  }

  /** Copies spend rows as they are (totals and run counts), for `migrate.ts`. */
  copySpend(rows: SpendRow[]): Promise<void> {
    return this.#tx("copy spend", { allTenants: true, roles: ["*"] }, async (c) => {
      for (const row of rows) {
        await c.query(
          `INSERT INTO spend (tenant, day, key_id, usd, runs) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (tenant, day, key_id) DO UPDATE SET usd = spend.usd + excluded.usd, runs = spend.runs + excluded.runs`,
          [row.tenant, row.day, row.key_id, row.usd, row.runs],
        );
      }
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([this.#db.close(), this.#read === this.#db ? undefined : this.#read.close()]);
  }
}

/**
 * Takes a transaction-level advisory lock per document of the batch, in one order (tenant, source, id), so
 * two processes writing the same source do not interleave on a document: without it both delete its old
 * chunks before either inserts, and the second insert duplicates or collides with the first's chunks.
 * Writers of different documents of one source still run in parallel.
 */
async function lockDocuments(client: pg.ClientBase, batch: DocumentWrite[]): Promise<void> {
  const keys = batch.map(({ doc }) => JSON.stringify([doc.tenant, doc.source, doc.id]));
  await client.query(
    // Locked in the order of the lock keys themselves, so two batches never wait on each other in a cycle.
    `SELECT pg_advisory_xact_lock(hashtext('ferret.document'), h)
     FROM (SELECT DISTINCT hashtext(k) AS h FROM unnest($1::text[]) AS t (k) ORDER BY h) AS locks`,
    [keys],
  );
}

/**
 * Connects to PostgreSQL, detects the extensions (naming each feature that is off and how to enable it),
 * sets up the roles where the login role may, and brings the schema up to date.
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const setupClient = new pg.Client({ connectionString: options.url });
  setupClient.on("error", () => {});
  let setup: Awaited<ReturnType<typeof setupDatabase>>;
  try {
    await setupClient.connect();
    setup = await setupDatabase(setupClient, options.url);
  } catch (error) {
    throw toStoreError(error, {
      operation: `open the PostgreSQL store at ${redactUrl(options.url)}`,
      url: options.url,
    });
  } finally {
    await setupClient.end().catch(() => {});
  }
  for (const missing of setup.missing) options.onWarning?.(`${missing.feature} is off: ${missing.message}`);
  const db = new PgDb({ url: options.url, max: options.poolSize ?? 10, appRole: setup.appRole });
  // The replica has the primary's schema, roles and functions (physical replication); it is not set up.
  const read =
    options.readUrl === undefined
      ? db
      : new PgDb({ url: options.readUrl, max: options.poolSize ?? 10, appRole: setup.appRole });
  return new PostgresStore(db, setup, options, read);
}
