import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import {
  InvalidInputError,
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
import { createSqliteStore } from "./index.js";
import { isDriverError, primaryCode, toStoreError } from "./sqlite-errors.js";

const dir = mkdtempSync(join(tmpdir(), "ferret-sqlite-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The error better-sqlite3 throws for `fn`. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected the driver to throw");
}

function memoryDb(): Database.Database {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)");
  return db;
}

const WRITE = { operation: "write documents" };
const QUERY = { operation: "run the query", sql: "SELECT ...", tables: ["orders", "parts"] };

describe("toStoreError", () => {
  it("maps SQLITE_ERROR of a query: missing table, unknown column, syntax", () => {
    const db = memoryDb();
    const table = toStoreError(
      thrown(() => db.prepare("SELECT * FROM main.nope")),
      QUERY,
    );
    expect(table).toBeInstanceOf(SqlInvalidError);
    expect(table).toMatchObject({
      category: "user",
      reason: "missing_table",
      missingTable: "nope",
      detail: "no such table: nope",
      context: { code: "SQLITE_ERROR", missingTable: "nope" },
    });
    expect((table as Error).message).toBe(
      "The query cannot run: no such table: nope. Tables you may query: orders, parts.",
    );
    const column = toStoreError(
      thrown(() => db.prepare("SELECT colour FROM t")),
      QUERY,
    );
    expect(column).toMatchObject({
      name: "SqlInvalidError",
      code: "no_such_column",
      reason: "missing_column",
      column: "colour",
    });
    expect(table).toMatchObject({ code: "no_such_table" });
    const syntax = toStoreError(
      thrown(() => db.prepare("SELECT name FROM t WHERE")),
      QUERY,
    );
    expect(syntax).toMatchObject({ name: "SqlInvalidError", code: "syntax", detail: "incomplete input" });
    for (const sql of ["SELECT name FROM t WHERE WHERE", "SELECT name FROM t WHERE name = 'open"]) {
      expect(
        toStoreError(
          thrown(() => db.prepare(sql)),
          QUERY,
        ),
        sql,
      ).toMatchObject({ code: "syntax" });
    }
    // Parses, cannot run: a function that does not exist.
    const invalid = toStoreError(
      thrown(() => db.prepare("SELECT no_such_function(name) FROM t")),
      QUERY,
    );
    expect(invalid).toMatchObject({ name: "SqlInvalidError", code: "invalid", reason: "invalid" });
    db.close();
  });

  it("maps SQLITE_BUSY (a lock held past the busy timeout) to StoreBusyError", () => {
    const path = join(dir, "busy.db");
    const holder = new Database(path);
    holder.exec("CREATE TABLE t (x)");
    holder.exec("BEGIN EXCLUSIVE");
    const other = new Database(path, { timeout: 0 });
    const error = toStoreError(
      thrown(() => other.prepare("INSERT INTO t VALUES (1)").run()),
      WRITE,
    );
    expect(error).toBeInstanceOf(StoreBusyError);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({
      name: "StoreBusyError",
      category: "system",
      context: { code: "SQLITE_BUSY", operation: "write documents" },
    });
    holder.exec("ROLLBACK");
    other.close();
    holder.close();
  });

  it("maps SQLITE_LOCKED to StoreBusyError too", () => {
    const error = toStoreError({ code: "SQLITE_LOCKED_SHAREDCACHE", message: "database table is locked" }, WRITE);
    expect(error).toMatchObject({ name: "StoreBusyError", context: { code: "SQLITE_LOCKED_SHAREDCACHE" } });
  });

  it("maps SQLITE_FULL (the disk, or here the page limit, is full) to StoreFullError", () => {
    const db = new Database(join(dir, "full.db"));
    db.exec("CREATE TABLE t (x)");
    db.pragma("max_page_count = 3");
    const error = toStoreError(
      thrown(() => db.prepare("INSERT INTO t VALUES (?)").run("x".repeat(100_000))),
      WRITE,
    );
    expect(error).toBeInstanceOf(StoreFullError);
    expect(error).toMatchObject({ name: "StoreFullError", context: { code: "SQLITE_FULL" } });
    expect((error as Error).message).toContain("the disk is full");
    db.close();
  });

  it("maps SQLITE_READONLY to StoreReadOnlyError, and to a rejected query where a query tried to write", () => {
    const path = join(dir, "readonly.db");
    new Database(path).exec("CREATE TABLE t (x)");
    const reader = new Database(path, { readonly: true });
    const driver = thrown(() => reader.prepare("INSERT INTO t VALUES (1)").run());
    expect(toStoreError(driver, WRITE)).toBeInstanceOf(StoreReadOnlyError);
    expect(toStoreError(driver, QUERY)).toBeInstanceOf(SqlRejectedError);
    expect(toStoreError(driver, QUERY)).toMatchObject({ context: { reason: "not_read_only" } });
    reader.close();
  });

  it("maps SQLITE_NOTADB and SQLITE_CORRUPT to StoreCorruptError", () => {
    const path = join(dir, "garbage.db");
    writeFileSync(path, "this is not a database file, but it is long enough to have a header".repeat(100));
    const db = new Database(path);
    const error = toStoreError(
      thrown(() => db.prepare("SELECT * FROM sqlite_master").all()),
      { operation: "open the store" },
    );
    expect(error).toMatchObject({ name: "StoreCorruptError", context: { code: "SQLITE_NOTADB" } });
    db.close();
    expect(
      toStoreError({ code: "SQLITE_CORRUPT_INDEX", message: "database disk image is malformed" }, WRITE),
    ).toBeInstanceOf(StoreCorruptError);
  });

  it("maps SQLITE_CONSTRAINT_* to StoreConstraintError with the extended code", () => {
    const db = memoryDb();
    db.prepare("INSERT INTO t VALUES (1, 'a')").run();
    const error = toStoreError(
      thrown(() => db.prepare("INSERT INTO t VALUES (1, 'b')").run()),
      WRITE,
    );
    expect(error).toBeInstanceOf(StoreConstraintError);
    expect(error).toMatchObject({ context: { code: "SQLITE_CONSTRAINT_PRIMARYKEY" } });
    db.close();
  });

  it("maps SQLITE_TOOBIG, SQLITE_NOMEM and SQLITE_INTERRUPT of a query to limit and timeout errors", () => {
    const db = memoryDb();
    const tooBig = toStoreError(
      thrown(() => db.prepare("SELECT zeroblob(2000000000)").get()),
      QUERY,
    );
    expect(tooBig).toBeInstanceOf(SqlLimitError);
    expect(tooBig).toMatchObject({ limit: "value_size", context: { code: "SQLITE_TOOBIG" } });
    db.close();
    expect(toStoreError({ code: "SQLITE_NOMEM", message: "out of memory" }, QUERY)).toMatchObject({
      name: "SqlLimitError",
      limit: "memory",
    });
    expect(toStoreError({ code: "SQLITE_INTERRUPT", message: "interrupted" }, QUERY)).toBeInstanceOf(SqlTimeoutError);
    // Outside a query they are the store's failures.
    expect(toStoreError({ code: "SQLITE_NOMEM", message: "out of memory" }, WRITE)).toMatchObject({
      name: "StoreError",
      context: { code: "SQLITE_NOMEM" },
    });
  });

  it("keeps any other code as a StoreError that names it, and passes other errors through", () => {
    const io = toStoreError({ code: "SQLITE_IOERR_WRITE", message: "disk I/O error" }, WRITE);
    expect(io).toMatchObject({
      name: "StoreError",
      context: { code: "SQLITE_IOERR_WRITE", operation: "write documents" },
    });
    expect((io as Error).message).toBe("SQLite failed to write documents: disk I/O error");
    const ferret = new InvalidInputError("bad");
    expect(toStoreError(ferret, WRITE)).toBe(ferret);
    const bug = new TypeError("x is undefined");
    expect(toStoreError(bug, WRITE)).toBe(bug);
    expect(toStoreError({ code: "ENOENT", message: "no file" }, WRITE)).toEqual({ code: "ENOENT", message: "no file" });
  });

  it("recognises driver errors and their primary codes", () => {
    expect(isDriverError(thrown(() => memoryDb().prepare("SELEC 1")))).toBe(true);
    expect(isDriverError(new Error("x"))).toBe(false);
    expect(primaryCode("SQLITE_BUSY_SNAPSHOT")).toBe("SQLITE_BUSY");
    expect(primaryCode("SQLITE_FULL")).toBe("SQLITE_FULL");
  });
});

describe("typed errors at the store's write boundaries", () => {
  it("surfaces a write blocked by another process's lock as StoreBusyError", async () => {
    const path = join(dir, "store-busy", "ferret.db");
    const store = await createSqliteStore({ path });
    await store.putSource({ name: "parts", tenant: "t", kind: "table", description: "Parts", acl: [] });
    const holder = new Database(path);
    holder.exec("BEGIN EXCLUSIVE");
    try {
      // Waits out the store's 5 s busy timeout, then fails as a typed, retryable error.
      await expect(
        store.writeTable({
          tenant: "t",
          source: "parts",
          file: "parts.csv",
          schema: { name: "parts", primaryKey: "id", columns: [{ name: "id", type: "INTEGER" }] },
          rows: [{ id: 1 }],
        }),
      ).rejects.toMatchObject({ name: "StoreBusyError", context: { operation: "write a table" } });
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
      await store.close();
    }
  });
});
