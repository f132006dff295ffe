import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StoreV1 } from "../spec/store.js";
import { ACME, acmeOwner, alice, GLOBEX, harriet, type OpenStore, olga } from "./fixtures.js";

/** The `runs` capability suite: a stored run is read back only within its tenant, by its user or an owner. */
export function runRunsSuite(name: string, open: OpenStore): void {
  describe(`runs suite: ${name}`, () => {
    let store: StoreV1;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
    });

    afterEach(async () => {
      await store.close();
      await cleanup();
    });

    const run = {
      runId: "run-1",
      tenant: ACME,
      user: "alice",
      question: "How many days?",
      startedAt: "2024-06-01T10:00:00Z",
      events: [{ type: "run-start" }],
      answer: { status: "answered" },
      sources: ["handbook", "tickets"],
    };

    it("keeps runs within their tenant and user", async () => {
      await store.saveRun(run);
      expect(await store.getRun("run-1", alice)).toEqual(run);
      expect(await store.getRun("run-1", acmeOwner)).toEqual(run);
      expect(await store.getRun("run-1", harriet)).toBeUndefined();
      expect(await store.getRun("run-1", olga)).toBeUndefined();
      expect(await store.getRun("nope", alice)).toBeUndefined();
      await store.saveRun({ ...run, events: [...run.events, { type: "run-end" }] });
      expect((await store.getRun("run-1", alice))?.events).toHaveLength(2);
      await expect(store.saveRun({ ...run, tenant: GLOBEX, user: "olga" })).rejects.toThrow();
      expect((await store.getRun("run-1", alice))?.tenant).toBe(ACME);
    });
  });
}
