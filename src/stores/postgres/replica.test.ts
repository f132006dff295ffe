import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { acmeOwner, alice, DOCS, fixtureWrite, SOURCES } from "../../testing/index.js";
import { createPostgresStore, type PostgresStore } from "./index.js";
import { clusterAvailable, type ReplicaPair, SERVER_MS, startReplicaPair } from "./test-servers.js";

/** A read replica: searches and run_sql read from a real hot standby, writes go to the primary. */
describe.skipIf(!clusterAvailable())("PostgreSQL read replica (readUrl)", () => {
  let pair: ReplicaPair;
  let store: PostgresStore;

  beforeAll(async () => {
    pair = await startReplicaPair(async (url) => {
      const setup = await createPostgresStore({ url });
      try {
        for (const source of SOURCES) await setup.putSource(source);
      } finally {
        await setup.close();
      }
    });
    store = await createPostgresStore({ url: pair.primary, readUrl: pair.standby, poolSize: 2 });
  }, SERVER_MS.start);

  afterAll(async () => {
    await store?.close();
    await pair?.stop();
  }, SERVER_MS.stop);

  const standbyQuery = async (sql: string) => {
    const client = new pg.Client({ connectionString: pair.standby });
    await client.connect();
    try {
      return (await client.query(sql)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };
  const search = (principal = acmeOwner) =>
    store.keywordSearch({ principal, terms: ["vacation", "salary"], k: 10 }).then((hits) => hits.map((h) => h.docId));

  it("is a real standby: it refuses writes", async () => {
    expect((await standbyQuery("SELECT pg_is_in_recovery() AS r"))[0]?.r).toBe(true);
    await expect(createPostgresStore({ url: pair.standby })).rejects.toThrow();
  });

  it("finds what was written to the primary once the standby has replayed it, under the same row-level security", async () => {
    const [vacation, salaries] = [DOCS.find((d) => d.source === "handbook"), DOCS.find((d) => d.source === "salaries")];
    expect(vacation && salaries).toBeTruthy();
    await store.writeDocuments([fixtureWrite(vacation!), fixtureWrite(salaries!)]);
    await vi.waitFor(async () => expect(await search()).toContain(vacation!.id), { timeout: 60_000, interval: 100 });
    await vi.waitFor(async () => expect(await search()).toContain(salaries!.id), { timeout: 60_000, interval: 100 });
    // The salary source is ACL'd to hr: the replica's policies hide it from a staff member.
    const seen = await search(alice);
    expect(seen).toContain(vacation!.id);
    expect(seen).not.toContain(salaries!.id);
  });

  it("reads searches from the standby: with its replay paused, a new document is not found until it resumes", async () => {
    expect(store.readUrl).toContain(new URL(pair.standby).port);
    await standbyQuery("SELECT pg_wal_replay_pause()");
    const late = { ...DOCS.find((d) => d.source === "handbook")!, id: "handbook/sabbatical.md" };
    late.paragraphs = ["A sabbatical of three months follows seven years of vacation accrual."];
    try {
      await store.writeDocuments([fixtureWrite(late)]);
      // The primary has it (a store without a replica finds it at once); the paused standby does not.
      const primaryOnly = await createPostgresStore({ url: pair.primary, poolSize: 1 });
      try {
        const onPrimary = await primaryOnly.keywordSearch({ principal: acmeOwner, terms: ["sabbatical"], k: 5 });
        expect(onPrimary.map((h) => h.docId)).toEqual([late.id]);
      } finally {
        await primaryOnly.close();
      }
      expect(await store.keywordSearch({ principal: acmeOwner, terms: ["sabbatical"], k: 5 })).toEqual([]);
    } finally {
      await standbyQuery("SELECT pg_wal_replay_resume()");
    }
    await vi.waitFor(
      async () =>
        expect(
          (await store.keywordSearch({ principal: acmeOwner, terms: ["sabbatical"], k: 5 })).map((h) => h.docId),
        ).toEqual([late.id]),
      { timeout: 60_000, interval: 100 },
    );
  });
});
