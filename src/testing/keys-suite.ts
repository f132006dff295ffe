import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApiKeyRecord, KeyStoreV1, SpendStoreV1 } from "../spec/keys.js";
import { keyStoreOf, spendStoreOf } from "../spec/keys.js";
import type { StoreV1 } from "../spec/store.js";
import type { OpenStore } from "./fixtures.js";

const key = (over: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id: "k1",
  hash: "a".repeat(64),
  tenant: "acme",
  user: "sam",
  roles: ["eng"],
  createdAt: "2026-01-01T00:00:00.000Z",
  ...over,
});

/** Opens a store for each test and hands over one of its parts (its key store, its spend records). */
function useStore<T>(open: OpenStore, part: (store: StoreV1) => T | undefined, what: string): { get: () => T } {
  let store: StoreV1;
  let cleanup: () => Promise<void>;
  let value: T | undefined;
  beforeEach(async () => {
    ({ store, cleanup } = await open());
    value = part(store);
  });
  afterEach(async () => {
    await store.close();
    await cleanup();
  });
  return {
    get() {
      if (value === undefined) throw new Error(`the store declares ${what} but has none`);
      return value;
    },
  };
}

/** The `keys` capability suite: API keys kept by hash, found, listed per tenant, revoked once, unique. */
export function runKeysSuite(name: string, open: OpenStore): void {
  describe(`keys suite: ${name}`, () => {
    const keys = useStore<KeyStoreV1>(open, keyStoreOf, "keys");

    it("stores keys with their limits, finds them by hash, lists by tenant and revokes once", async () => {
      const store = keys.get();
      await store.putKey(key({ label: "ci", rate: { requests: 60, perMs: 60_000 }, dailyUsd: 5 }));
      await store.putKey(key({ id: "k2", hash: "b".repeat(64), tenant: "globex", roles: [] }));
      expect(await store.keyByHash("a".repeat(64))).toEqual(
        key({ label: "ci", rate: { requests: 60, perMs: 60_000 }, dailyUsd: 5 }),
      );
      expect(await store.keyByHash("c".repeat(64))).toBeUndefined();
      expect((await store.listKeys({ tenant: "globex" })).map((k) => k.id)).toEqual(["k2"]);
      expect((await store.listKeys()).map((k) => k.id)).toEqual(["k1", "k2"]);
      expect(await store.revokeKey("k1", "2026-01-02T00:00:00.000Z")).toBe(true);
      expect(await store.revokeKey("k1", "2026-01-03T00:00:00.000Z")).toBe(false);
      expect(await store.revokeKey("nope", "2026-01-03T00:00:00.000Z")).toBe(false);
      expect((await store.keyByHash("a".repeat(64)))?.revokedAt).toBe("2026-01-02T00:00:00.000Z");
    });

    it("refuses a second key with the same id or hash", async () => {
      const store = keys.get();
      await store.putKey(key());
      await expect(store.putKey(key({ hash: "d".repeat(64) }))).rejects.toMatchObject({
        name: "StoreConstraintError",
      });
      await expect(store.putKey(key({ id: "k9" }))).rejects.toMatchObject({ name: "StoreConstraintError" });
    });
  });
}

/** The `spend` capability suite: daily spend per tenant, day and key, added atomically, inputs checked. */
export function runSpendSuite(name: string, open: OpenStore): void {
  describe(`spend suite: ${name}`, () => {
    const spend = useStore<SpendStoreV1>(open, spendStoreOf, "spend");

    it("adds spend per tenant, day and key, concurrent additions included", async () => {
      const store = spend.get();
      await store.addSpend({ tenant: "acme", day: "2026-03-01", keyId: "k1", usd: 0.25 });
      await Promise.all([
        store.addSpend({ tenant: "acme", day: "2026-03-01", keyId: "k1", usd: 0.5 }),
        store.addSpend({ tenant: "acme", day: "2026-03-01", keyId: "k2", usd: 1 }),
        store.addSpend({ tenant: "acme", day: "2026-03-02", keyId: "k1", usd: 4 }),
        store.addSpend({ tenant: "globex", day: "2026-03-01", keyId: "k3", usd: 8 }),
      ]);
      expect(await store.spent({ tenant: "acme", day: "2026-03-01" })).toBe(1.75);
      expect(await store.spent({ tenant: "acme", day: "2026-03-01", keyId: "k1" })).toBe(0.75);
      expect(await store.spent({ tenant: "globex", day: "2026-03-01" })).toBe(8);
      expect(await store.spent({ tenant: "acme", day: "2026-03-03" })).toBe(0);
    });

    it("refuses a day that is not YYYY-MM-DD and a negative amount", async () => {
      const store = spend.get();
      await expect(store.addSpend({ tenant: "acme", day: "03/01/2026", keyId: "", usd: 1 })).rejects.toMatchObject({
        name: "InvalidInputError",
      });
      await expect(store.addSpend({ tenant: "acme", day: "2026-03-01", keyId: "", usd: -1 })).rejects.toMatchObject({
        name: "InvalidInputError",
      });
      expect(await store.spent({ tenant: "acme", day: "2026-03-01" })).toBe(0);
    });
  });
}
