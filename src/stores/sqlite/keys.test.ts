import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApiKeyRecord } from "../../spec/keys.js";
import { createSqliteStore, type SqliteStore } from "./index.js";
import { SCHEMA_VERSION } from "./schema.js";

const key = (over: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id: "k1",
  hash: "a".repeat(64),
  tenant: "acme",
  user: "sam",
  roles: ["eng"],
  createdAt: "2026-01-01T00:00:00.000Z",
  ...over,
});

describe("sqlite API keys and spend", () => {
  let dir: string;
  let path: string;
  let store: SqliteStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "ferret-keys-"));
    path = join(dir, "k.db");
    store = await createSqliteStore({ path });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("stores keys with their limits, finds them by hash, lists by tenant and revokes once", async () => {
    await store.keys.putKey(key({ label: "ci", rate: { requests: 60, perMs: 60_000 }, dailyUsd: 5 }));
    await store.keys.putKey(key({ id: "k2", hash: "b".repeat(64), tenant: "globex", roles: [] }));
    expect(await store.keys.keyByHash("a".repeat(64))).toEqual(
      key({ label: "ci", rate: { requests: 60, perMs: 60_000 }, dailyUsd: 5 }),
    );
    expect(await store.keys.keyByHash("c".repeat(64))).toBeUndefined();
    expect((await store.keys.listKeys({ tenant: "globex" })).map((k) => k.id)).toEqual(["k2"]);
    expect((await store.keys.listKeys()).map((k) => k.id)).toEqual(["k1", "k2"]);
    expect(await store.keys.revokeKey("k1", "2026-01-02T00:00:00.000Z")).toBe(true);
    expect(await store.keys.revokeKey("k1", "2026-01-03T00:00:00.000Z")).toBe(false);
    expect(await store.keys.revokeKey("nope", "2026-01-03T00:00:00.000Z")).toBe(false);
    expect((await store.keys.keyByHash("a".repeat(64)))?.revokedAt).toBe("2026-01-02T00:00:00.000Z");
  });

  it("refuses a second key with the same id or hash", async () => {
    await store.keys.putKey(key());
    await expect(store.keys.putKey(key({ hash: "d".repeat(64) }))).rejects.toMatchObject({
      name: "StoreConstraintError",
    });
    await expect(store.keys.putKey(key({ id: "k9" }))).rejects.toMatchObject({ name: "StoreConstraintError" });
  });

  it("adds spend per tenant, day and key, and keeps it across a reopen", async () => {
    await store.spend.addSpend({ tenant: "acme", day: "2026-03-01", keyId: "k1", usd: 0.25 });
    await Promise.all([
      store.spend.addSpend({ tenant: "acme", day: "2026-03-01", keyId: "k1", usd: 0.5 }),
      store.spend.addSpend({ tenant: "acme", day: "2026-03-01", keyId: "k2", usd: 1 }),
      store.spend.addSpend({ tenant: "acme", day: "2026-03-02", keyId: "k1", usd: 4 }),
      store.spend.addSpend({ tenant: "globex", day: "2026-03-01", keyId: "k3", usd: 8 }),
    ]);
    await store.close();
    store = await createSqliteStore({ path });
    expect(await store.spend.spent({ tenant: "acme", day: "2026-03-01" })).toBe(1.75);
    expect(await store.spend.spent({ tenant: "acme", day: "2026-03-01", keyId: "k1" })).toBe(0.75);
    expect(await store.spend.spent({ tenant: "acme", day: "2026-03-03" })).toBe(0);
    await expect(store.spend.addSpend({ tenant: "acme", day: "03/01/2026", keyId: "", usd: 1 })).rejects.toMatchObject({
      name: "InvalidInputError",
    });
    await expect(store.spend.addSpend({ tenant: "acme", day: "2026-03-01", keyId: "", usd: -1 })).rejects.toMatchObject(
      { name: "InvalidInputError" },
    );
  });

  it("upgrades a v2 store to v3 with empty key and spend tables", async () => {
    await store.close();
    const db = new Database(path);
    db.exec("DROP TABLE api_keys; DROP TABLE spend; DROP INDEX runs_by_tenant;");
    db.prepare("UPDATE meta SET value = '2' WHERE key = 'schema_version'").run();
    db.close();
    store = await createSqliteStore({ path });
    expect(await store.keys.listKeys()).toEqual([]);
    expect(await store.spend.spent({ tenant: "acme", day: "2026-03-01" })).toBe(0);
    const check = new Database(path, { readonly: true });
    expect(check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({
      value: String(SCHEMA_VERSION),
    });
    check.close();
    expect(SCHEMA_VERSION).toBe(3);
  });
});
