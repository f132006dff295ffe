import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STORE_CAPABILITIES } from "../../spec/store.js";
import { ACME, alice, fixtureWrite, runStoreSuites } from "../../testing/index.js";
import { createSqliteStore } from "./index.js";
import { SCHEMA_VERSION } from "./schema.js";

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "ferret-sqlite-"));
}

// The SQLite store has every capability: it runs every conformance suite.
runStoreSuites(
  "sqlite",
  async () => {
    const dir = tempDir();
    // A memory cap far above what the suite's runaway queries reach before their time limit (the limit must decide).
    const store = await createSqliteStore({
      path: join(dir, "nested", "ferret.db"),
      sql: { memoryBytes: 4 * 1024 ** 3 },
    });
    return { store, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  },
  { capabilities: STORE_CAPABILITIES },
);

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

  it("listSources answers from its cache only while nothing changed, in this process or another", async () => {
    const dir = tempDir();
    try {
      const path = join(dir, "cache.db");
      const store = await createSqliteStore({ path });
      const other = await createSqliteStore({ path });
      await store.putSource({ name: "handbook", tenant: ACME, kind: "documents", description: "Handbook", acl: [] });
      const first = await store.listSources(alice);
      expect(first.map((s) => [s.name, s.documents])).toEqual([["handbook", 0]]);
      first[0]!.documents = 99;
      expect((await store.listSources(alice))[0]?.documents).toBe(0);
      // Another connection (as another process would) writes; the next list sees it at once.
      await other.writeDocuments([
        fixtureWrite({ id: "handbook/a.md", source: "handbook", title: "A", paragraphs: ["One.", "Two."] }),
      ]);
      expect((await store.listSources(alice)).map((s) => [s.name, s.documents, s.chunks])).toEqual([
        ["handbook", 1, 2],
      ]);
      // The write also marks when an ingest last changed the source; before it there was none.
      expect(first[0]?.lastIngestAt).toBeUndefined();
      const stamped = (await store.listSources(alice))[0]?.lastIngestAt;
      expect(new Date(stamped ?? "").toISOString()).toBe(stamped);
      await other.putSource({ name: "payroll", tenant: ACME, kind: "documents", description: "Pay", acl: ["hr"] });
      await other.putSource({ name: "wiki", tenant: ACME, kind: "documents", description: "Wiki", acl: [] });
      expect((await store.listSources(alice)).map((s) => s.name)).toEqual(["handbook", "wiki"]);
      await other.removeSource(ACME, "wiki");
      expect((await store.listSources(alice)).map((s) => s.name)).toEqual(["handbook"]);
      await Promise.all([store.close(), other.close()]);
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
