import Database from "better-sqlite3";
import { SqlRejectedError, StoreError } from "../../spec/errors.js";
import type { Principal } from "../../spec/principal.js";
import type { SqlQueryOptions, SqlResult } from "../../spec/store.js";
import type { StoreContext } from "./context.js";
import { sourceAllowed } from "./filters.js";
import { type SqlLimits, type SqlReply, SqlRunners } from "./sql-runner.js";
import { toStoreError } from "./sqlite-errors.js";
import { createTableSql, parseTableRow, quoteIdent, type RegisteredTable } from "./tables.js";

const FORBIDDEN = /\b(ATTACH|DETACH|PRAGMA|VACUUM)\b/i;
/** How many serialized copies to keep (one per tenant + permitted table set + data version). */
const CACHE_SIZE = 8;
/** Past this many bytes of copies, the least recently used go (the newest always stays). */
const CACHE_BYTES = 256 * 1024 * 1024;
export const DEFAULT_SQL_ROWS = 200;
export const DEFAULT_SQL_TIMEOUT_MS = 5000;

/**
 * Read-only SQL by construction: each query runs in a private database holding copies of only the tables the
 * principal may read (named by source name), with `query_only` on, in a runner process that is killed when the
 * query's time is up or its caller aborts (see `sql-runner.ts`). The copy is built here from the store and sent
 * to the runner as a serialized image, cached by tenant, table set and tables version.
 * Bounds: rows (`maxRows`), time (`timeoutMs`), result bytes, cell size and working memory (`SqlLimits`).
 * SQLite has no recursion-depth limit for recursive CTEs: time, rows and memory bound them.
 */
export class SqlQueries {
  readonly #ctx: StoreContext;
  readonly #runners: SqlRunners;
  readonly #images = new Map<string, Uint8Array>();

  constructor(ctx: StoreContext, limits: Partial<SqlLimits> = {}) {
    this.#ctx = ctx;
    this.#runners = new SqlRunners(limits);
  }

  /** The runner pool, for tests and diagnostics (`pids()`). */
  get runners(): SqlRunners {
    return this.#runners;
  }

  async query(sql: string, principal: Principal, options: SqlQueryOptions = {}): Promise<SqlResult> {
    const maxRows = Math.max(1, Math.floor(options.maxRows ?? DEFAULT_SQL_ROWS));
    const timeoutMs = options.timeoutMs ?? DEFAULT_SQL_TIMEOUT_MS;
    const withoutLiterals = sql.replace(/'(?:[^']|'')*'/g, "''");
    const forbidden = FORBIDDEN.exec(withoutLiterals);
    if (forbidden) {
      throw new SqlRejectedError(`Only read-only SELECT queries are allowed; ${forbidden[1]?.toUpperCase()} is not.`, {
        sql,
        reason: "forbidden_keyword",
      });
    }
    let tables: RegisteredTable[];
    let key: string;
    try {
      tables = this.#permittedTables(principal);
      const version = this.#ctx.getMeta("tables_version") ?? "0";
      key = JSON.stringify([principal.tenant, version, tables.map((table) => table.sqlName)]);
    } catch (error) {
      throw toStoreError(error, { operation: "list the tables to query" });
    }
    const reply = await this.#runners.run(
      { key, sql, maxRows, image: () => this.#image(key, tables) },
      { timeoutMs, signal: options.signal },
    );
    return result(reply, sql, tables);
  }

  close(): void {
    this.#runners.close();
    this.#images.clear();
  }

  #permittedTables(principal: Principal): RegisteredTable[] {
    const allowed = sourceAllowed("t.source", "t.tenant", principal);
    const rows = this.#ctx
      .stmt(
        `SELECT t.name, t.source, t.sql_name, t.schema FROM table_sources AS t WHERE t.tenant = ? AND ${allowed.sql}`,
      )
      .all(principal.tenant, ...allowed.params) as { name: string; source: string; sql_name: string; schema: string }[];
    return rows.map(parseTableRow).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The serialized private copy of `tables`, from the cache or built now. */
  #image(key: string, tables: RegisteredTable[]): Uint8Array {
    const cached = this.#images.get(key);
    if (cached) {
      this.#images.delete(key);
      this.#images.set(key, cached);
      return cached;
    }
    let image: Uint8Array;
    try {
      image = this.#build(tables);
    } catch (error) {
      throw toStoreError(error, { operation: "copy the tables to query" });
    }
    this.#images.set(key, image);
    let bytes = 0;
    for (const kept of this.#images.values()) bytes += kept.byteLength;
    for (const [oldest, kept] of this.#images) {
      if (this.#images.size <= 1 || (this.#images.size <= CACHE_SIZE && bytes <= CACHE_BYTES)) break;
      this.#images.delete(oldest);
      bytes -= kept.byteLength;
    }
    return image;
  }

  #build(tables: RegisteredTable[]): Uint8Array {
    const db = new Database(":memory:");
    try {
      db.transaction(() => {
        for (const table of tables) {
          db.exec(createTableSql(table.name, table.schema));
          const width = table.schema.columns.length + 1;
          const insert = db.prepare(
            `INSERT INTO ${quoteIdent(table.name)} VALUES (${Array(width).fill("?").join(", ")})`,
          );
          const rows = this.#ctx.db
            .prepare(`SELECT * FROM ${quoteIdent(table.sqlName)}`)
            .raw()
            .iterate() as Iterable<unknown[]>;
          for (const row of rows) insert.run(...row);
        }
      })();
      return db.serialize();
    } finally {
      db.close();
    }
  }
}

/** The runner's reply as a result, or as the typed error it stands for. */
function result(reply: SqlReply, sql: string, tables: readonly RegisteredTable[]): SqlResult {
  if (reply.type === "result") {
    const out: SqlResult = { columns: reply.columns, rows: reply.rows, truncated: reply.truncatedBy !== undefined };
    if (reply.truncatedBy !== undefined) out.truncatedBy = reply.truncatedBy;
    if (reply.clippedCells > 0) out.clippedCells = reply.clippedCells;
    return out;
  }
  if (reply.kind === "rejected") throw new SqlRejectedError(reply.message, { sql, reason: reply.reason });
  if (reply.kind === "sqlite") {
    throw toStoreError(
      { code: reply.code, message: reply.message },
      { operation: "run the query", sql, tables: tables.map((table) => table.name) },
    );
  }
  throw new StoreError(`The SQL runner failed: ${reply.message}`, undefined, { sql });
}
