/**
 * The one place where SQLite's result codes become ferret errors. better-sqlite3 throws `SqliteError` with a
 * `code` such as `SQLITE_BUSY` or `SQLITE_CONSTRAINT_UNIQUE` (extended codes start with their primary code);
 * the SQL runner sends the same `{ code, message }` back from its process. Nothing outside this adapter reads
 * a driver message: where a caller needs a detail (the missing table, the unknown column), it is a field.
 */
import {
  FerretError,
  SqlInvalidError,
  SqlLimitError,
  SqlRejectedError,
  SqlTimeoutError,
  StoreBusyError,
  StoreConstraintError,
  StoreCorruptError,
  StoreError,
  StoreFullError,
  StoreReadOnlyError,
} from "../../spec/errors.js";

/** What the adapter needs from a driver error. */
export interface DriverError {
  code: string;
  message: string;
}

/** Where the error happened: the operation in words, and for a user's query its SQL and the tables it may use. */
export interface ErrorSite {
  operation: string;
  sql?: string;
  tables?: readonly string[];
}

/** A better-sqlite3 `SqliteError` (or its copy sent from the SQL runner): an object with a `SQLITE_*` code. */
export function isDriverError(error: unknown): error is DriverError {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === "string" && code.startsWith("SQLITE_") && typeof message === "string";
}

/** `SQLITE_BUSY_SNAPSHOT` -> `SQLITE_BUSY`. */
export function primaryCode(code: string): string {
  const match = /^SQLITE_[A-Z]+/.exec(code);
  return match ? match[0] : code;
}

/**
 * The typed error for `error`. Errors that are not driver errors pass through unchanged (ferret errors, bugs),
 * so `throw toStoreError(error, site)` is safe in any catch.
 */
export function toStoreError(error: unknown, site: ErrorSite): unknown {
  if (error instanceof FerretError || !isDriverError(error)) return error;
  const code = error.code;
  const context: Record<string, unknown> = { code, operation: site.operation };
  const failed = `SQLite failed to ${site.operation}`;
  switch (primaryCode(code)) {
    case "SQLITE_BUSY":
    case "SQLITE_LOCKED":
      return new StoreBusyError(
        `${failed}: the database is busy (another process holds its lock); try again.`,
        error,
        context,
      );
    case "SQLITE_FULL":
      return new StoreFullError(
        `${failed}: the disk is full; nothing of this write was kept. Free space and run it again.`,
        error,
        context,
      );
    case "SQLITE_READONLY":
      if (site.sql !== undefined) {
        return new SqlRejectedError("Only read-only SELECT queries are allowed; this one tried to write.", {
          code,
          sql: site.sql,
          reason: "not_read_only",
        });
      }
      return new StoreReadOnlyError(`${failed}: the database cannot be written (${error.message}).`, error, context);
    case "SQLITE_CORRUPT":
    case "SQLITE_NOTADB":
      return new StoreCorruptError(`${failed}: the database file is damaged (${error.message}).`, error, context);
    case "SQLITE_CONSTRAINT":
      return new StoreConstraintError(`${failed}: ${error.message}.`, error, context);
  }
  if (site.sql !== undefined) return queryError(error, site, context);
  return new StoreError(`${failed}: ${error.message}`, error, context);
}

/** SQLite's messages for a statement that does not parse (its result code, SQLITE_ERROR, is shared by all). */
const SYNTAX = /syntax error$|^incomplete input$|^unrecognized token: /;

/** Errors of a user's query: what was wrong with it, or which limit stopped it. */
function queryError(error: DriverError, site: ErrorSite, base: Record<string, unknown>): FerretError {
  const context = { ...base, sql: site.sql };
  switch (primaryCode(error.code)) {
    case "SQLITE_INTERRUPT":
      return new SqlTimeoutError("The query was interrupted before it finished.", { cause: error, context });
    case "SQLITE_NOMEM":
      return new SqlLimitError("The query ran out of memory and was stopped.", {
        limit: "memory",
        cause: error,
        context,
      });
    case "SQLITE_TOOBIG":
      return new SqlLimitError("The query made a value larger than the database allows.", {
        limit: "value_size",
        cause: error,
        context,
      });
  }
  const available = site.tables === undefined ? "" : ` Tables you may query: ${site.tables.join(", ") || "(none)"}.`;
  const table = /^no such table: (.+)$/.exec(error.message)?.[1];
  if (table !== undefined) {
    const missingTable = table.replace(/^(main|temp)\./, "");
    const detail = `no such table: ${missingTable}`;
    return new SqlInvalidError(`The query cannot run: ${detail}.${available}`, {
      reason: "missing_table",
      detail,
      missingTable,
      cause: error,
      context,
    });
  }
  const column = /^no such column: (.+)$/.exec(error.message)?.[1];
  if (column !== undefined) {
    return new SqlInvalidError(`The query cannot run: ${error.message}.${available}`, {
      reason: "missing_column",
      detail: error.message,
      column,
      cause: error,
      context,
    });
  }
  return new SqlInvalidError(`The query cannot run: ${error.message}.${available}`, {
    reason: SYNTAX.test(error.message) ? "syntax" : "invalid",
    detail: error.message,
    cause: error,
    context,
  });
}
