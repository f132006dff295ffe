import Database from "better-sqlite3";
import { SqlRejectedError } from "../../spec/errors.js";
import type { Principal } from "../../spec/principal.js";
import type { SqlResult } from "../../spec/store.js";
import type { StoreContext } from "./context.js";
import { sourceAllowed } from "./filters.js";
import { createTableSql, parseTableRow, quoteIdent, type RegisteredTable } from "./tables.js";

const FORBIDDEN = /\b(ATTACH|DETACH|PRAGMA|VACUUM)\b/i;
/** How many private copies to keep (one per tenant + permitted table set + data version). */
const CACHE_SIZE = 8;
/** Rows between two looks at the clock. */
const CLOCK_EVERY = 64;

/**
 * Read-only SQL by construction: each query runs in a private in-memory database holding copies of only the
 * tables the principal may read (named by source name), with `query_only` on. The statement must be a single
 * read-only SELECT. Limitation: the time limit is checked between rows, so one slow step (a huge sort or join
 * before the first row) runs to its end; better-sqlite3 is synchronous and cannot interrupt it.
 */
export class SqlQueries {
  readonly #ctx: StoreContext;
  readonly #cache = new Map<string, Database.Database>();

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  query(sql: string, principal: Principal, options: { maxRows?: number; timeoutMs?: number } = {}): SqlResult {
    const maxRows = Math.max(1, Math.floor(options.maxRows ?? 200));
    const timeoutMs = options.timeoutMs ?? 5000;
    const withoutLiterals = sql.replace(/'(?:[^']|'')*'/g, "''");
    const forbidden = FORBIDDEN.exec(withoutLiterals);
    if (forbidden) {
      throw new SqlRejectedError(`Only read-only SELECT queries are allowed; ${forbidden[1]?.toUpperCase()} is not.`, {
        sql,
        reason: "forbidden_keyword",
      });
    }
    const tables = this.#permittedTables(principal);
    const db = this.#database(principal.tenant, tables);
    let statement: Database.Statement;
    try {
      statement = db.prepare(sql);
    } catch (cause) {
      const available = tables.map((table) => table.name).join(", ") || "(none)";
      throw new SqlRejectedError(
        `The query cannot run: ${(cause as Error).message}. Tables you may query: ${available}.`,
        {
          sql,
          reason: "invalid",
        },
      );
    }
    if (!statement.reader || !statement.readonly) {
      throw new SqlRejectedError("Only read-only SELECT queries are allowed; this statement would change data.", {
        sql,
        reason: "not_read_only",
      });
    }
    const columns = statement.columns().map((column) => column.name);
    const rows: Record<string, unknown>[] = [];
    const started = Date.now();
    let truncated = false;
    try {
      for (const row of statement.iterate() as Iterable<Record<string, unknown>>) {
        if (rows.length === maxRows) {
          truncated = true;
          break;
        }
        rows.push(row);
        if (rows.length % CLOCK_EVERY === 0 && Date.now() - started > timeoutMs) {
          throw new SqlRejectedError(`The query ran longer than ${timeoutMs} ms; narrow it or add a LIMIT.`, {
            sql,
            reason: "timeout",
          });
        }
      }
    } catch (error) {
      if (error instanceof SqlRejectedError) throw error;
      throw new SqlRejectedError(`The query failed: ${(error as Error).message}.`, { sql, reason: "failed" });
    }
    return { columns, rows, truncated };
  }

  close(): void {
    for (const db of this.#cache.values()) db.close();
    this.#cache.clear();
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

  #database(tenant: string, tables: RegisteredTable[]): Database.Database {
    const version = this.#ctx.getMeta("tables_version") ?? "0";
    const key = JSON.stringify([tenant, version, tables.map((table) => table.sqlName)]);
    const cached = this.#cache.get(key);
    if (cached) {
      this.#cache.delete(key);
      this.#cache.set(key, cached);
      return cached;
    }
    const db = new Database(":memory:");
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
    db.pragma("query_only = 1");
    this.#cache.set(key, db);
    while (this.#cache.size > CACHE_SIZE) {
      const oldest = this.#cache.keys().next().value as string;
      this.#cache.get(oldest)?.close();
      this.#cache.delete(oldest);
    }
    return db;
  }
}
