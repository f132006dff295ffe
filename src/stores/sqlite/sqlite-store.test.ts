import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runStoreSuite } from "../store-suite.js";
import { createSqliteStore } from "./index.js";
import { SCHEMA_VERSION } from "./schema.js";

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "ferret-sqlite-"));
}

runStoreSuite("sqlite", async () => {
  const dir = tempDir();
  // A memory cap far above what the suite's runaway queries reach before their time limit (the limit must decide).
  const store = await createSqliteStore({
    path: join(dir, "nested", "ferret.db"),
    sql: { memoryBytes: 4 * 1024 ** 3 },
  });
  return { store, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
});

describe("sqlite store", () => {
  it("creates the file with WAL, a schema version, and reopens read-only", async () => {
    const dir = tempDir();
    try {
      const path = join(dir, "a", "b", "ferret.db");
      const store = await createSqliteStore({ path });
      await store.putSource({ name: "notes", tenant: "default", kind: "documents", description: "Notes", acl: [] });
      await store.close();
      const reader = await createSqliteStore({ path, readonly: true });
      expect((await reader.listSources({ tenant: "default", user: "u", roles: [] })).map((s) => s.name)).toEqual([
        "notes",
      ]);
      await expect(reader.removeSource("default", "notes")).rejects.toMatchObject({ name: "StoreError" });
      await reader.close();
      const Database = (await import("better-sqlite3")).default;
      const db = new Database(path, { readonly: true });
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({
        value: String(SCHEMA_VERSION),
      });
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses calls after close with a StoreError", async () => {
    const dir = tempDir();
    try {
      const store = await createSqliteStore({ path: join(dir, "x.db") });
      await store.close();
      await expect(store.listSources({ tenant: "t", user: "u", roles: [] })).rejects.toMatchObject({
        name: "StoreError",
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
