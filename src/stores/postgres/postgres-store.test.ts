import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STORE_CAPABILITIES } from "../../spec/store.js";
import { acmeOwner, fixtureWrite, runStoreSuites } from "../../testing/index.js";
import { postgresDialect as d } from "./dialect.js";
import { createPostgresStore } from "./index.js";
import type { TestServer } from "./test-servers.js";
import { clusterAvailable, SERVER_MS, startCluster, startPglite, stopServers } from "./test-servers.js";

const started: Promise<TestServer>[] = [];
function lazy(start: () => Promise<TestServer>): () => Promise<TestServer> {
  let server: Promise<TestServer> | undefined;
  return () => {
    if (!server) {
      server = start();
      started.push(server);
    }
    return server;
  };
}
const pglite = lazy(startPglite);
const cluster = lazy(startCluster);

// Servers start before any test (PGlite takes seconds to boot on a loaded machine), not inside a test's time.
beforeAll(async () => {
  await pglite();
  if (clusterAvailable()) await cluster();
}, SERVER_MS.start);

afterAll(() => stopServers(started), SERVER_MS.stop);

function opener(server: () => Promise<TestServer>) {
  return async () => {
    const url = await (await server()).database();
    const store = await createPostgresStore({ url, poolSize: 4 });
    return { store, cleanup: async () => {} };
  };
}

runStoreSuites("postgres (PGlite)", opener(pglite), { capabilities: STORE_CAPABILITIES, stopsSql: false });
if (clusterAvailable()) runStoreSuites("postgres 15 (cluster)", opener(cluster), { capabilities: STORE_CAPABILITIES });

describe("extensions detected at start", () => {
  it("PGlite has pgvector and pg_textsearch: its bm25 index is built, nothing reported off", async () => {
    const warnings: string[] = [];
    const store = await createPostgresStore({
      url: await (await pglite()).database(),
      onWarning: (m) => warnings.push(m),
    });
    try {
      expect(store.textsearchIndex).toBe(true);
      expect(store.missing).toEqual([]);
      expect(warnings).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!clusterAvailable())(
    "PostgreSQL 15 without pg_textsearch (and with or without pgvector) names each feature that is off and how to enable it",
    async () => {
      const server = await cluster();
      const warnings: string[] = [];
      const store = await createPostgresStore({ url: await server.database(), onWarning: (m) => warnings.push(m) });
      try {
        expect(store.textsearchIndex).toBe(false);
        expect(store.missing.map((m) => m.feature).sort()).toEqual(
          server.pgvector ? ["pg_textsearch index"] : ["pg_textsearch index", "vector index"],
        );
        expect(store.vectorFeatures.hnsw).toBe(server.pgvector);
        if (server.pgvector) expect(warnings.join("\n")).not.toMatch(/vector index is off/);
        else expect(warnings.join("\n")).toMatch(/vector index is off: .*CREATE EXTENSION vector/);
        expect(warnings.join("\n")).toMatch(
          /pg_textsearch index is off: .*Keyword search is not affected.*CREATE EXTENSION pg_textsearch/,
        );
      } finally {
        await store.close();
      }
    },
  );
});

describe("several writers on one database", () => {
  const servers: [string, () => Promise<TestServer>][] = [["PGlite", pglite]];
  if (clusterAvailable()) servers.push(["PostgreSQL 15 cluster", cluster]);
  for (const [kind, server] of servers) {
    it(`keyword searches at once on several connections return what they return one by one (${kind})`, async () => {
      // Each search is one statement outside a transaction block that sets its own scope; PGlite serves every
      // connection from one session, where it must neither see nor leave another connection's scope.
      const url = await (await server()).database();
      const store = await createPostgresStore({ url, poolSize: 4 });
      try {
        await store.putSource({
          name: "notes",
          tenant: acmeOwner.tenant,
          kind: "documents",
          description: "n",
          acl: [],
        });
        await store.writeDocuments(
          ["amber lantern harbour", "amber quarry ledger", "harbour ledger lantern", "quarry amber amber"].map(
            (text, i) => fixtureWrite({ id: `notes/${i}.md`, source: "notes", title: `note ${i}`, paragraphs: [text] }),
          ),
        );
        const queries = [["amber", "ledger"], ["harbour"], ["lantern", "quarry", "amber"], ["ledger", "harbour"]];
        const search = (terms: string[]) =>
          store.keywordSearch({ principal: acmeOwner, k: 3, terms }).then((hits) => hits.map((h) => h.id));
        const one = [];
        for (const terms of queries) one.push(await search(terms));
        for (const hits of one) expect(hits.length).toBeGreaterThan(0);
        const together = await Promise.all([...queries, ...queries].map(search));
        expect(together).toEqual([...one, ...one]);
      } finally {
        await store.close();
      }
    });

    it(`two stores writing at once lose nothing and duplicate nothing (${kind})`, async () => {
      const url = await (await server()).database();
      const [a, b] = await Promise.all([
        createPostgresStore({ url, poolSize: 3 }),
        createPostgresStore({ url, poolSize: 3 }),
      ]);
      try {
        const docs = (prefix: string, n: number) =>
          Array.from({ length: n }, (_, i) =>
            fixtureWrite({
              id: `${prefix}/${i}.md`,
              source: prefix,
              title: `${prefix} ${i}`,
              paragraphs: [`first part of ${prefix} ${i}`, `second part of ${prefix} ${i}`],
              vectors: [
                [1, i, 0, 0],
                [0, 1, i, 0],
              ],
            }),
          );
        const write = async (store: typeof a, prefix: string) => {
          await store.putSource({
            name: prefix,
            tenant: acmeOwner.tenant,
            kind: "documents",
            description: prefix,
            acl: [],
          });
          const all = docs(prefix, 24);
          for (let i = 0; i < all.length; i += 4) await store.writeDocuments(all.slice(i, i + 4));
          await store.writeTable({
            tenant: acmeOwner.tenant,
            source: prefix,
            file: `${prefix}.csv`,
            schema: { name: "shared_name", primaryKey: "k", columns: [{ name: "k", type: "TEXT" }] },
            rows: [{ k: prefix }],
          });
        };
        await Promise.all([write(a, "left"), write(b, "right"), write(a, "middle")]);
        const counts = await a.counts();
        expect(counts).toMatchObject({ documents: 72, chunks: 144, vectors: 144, tables: 3, tableRows: 3 });
        const hits = await b.vectorSearch({ principal: acmeOwner, vector: Float32Array.from([1, 0, 0, 0]), k: 200 });
        expect(new Set(hits.map((h) => `${h.source}/${h.id}`)).size).toBe(144);
        // Three tables wanted the same name at once: each got its own.
        const names = (await a.listSources(acmeOwner)).flatMap((s) => s.tables?.map((t) => t.name) ?? []).sort();
        expect(names).toEqual(["shared_name", "shared_name_2", "shared_name_3"]);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
  }
});

describe("the PostgreSQL SQL dialect", () => {
  it("runs each function the planner writes, through run_sql", async () => {
    const store = await createPostgresStore({ url: await (await pglite()).database() });
    try {
      expect(store.sqlDialect).toBe(d);
      await store.putSource({ name: "t", tenant: acmeOwner.tenant, kind: "table", description: "T", acl: [] });
      await store.writeTable({
        tenant: acmeOwner.tenant,
        source: "t",
        file: "t.csv",
        schema: {
          name: "events",
          primaryKey: "id",
          columns: [
            { name: "id", type: "INTEGER" },
            { name: "Team", type: "TEXT" },
            { name: "opened", type: "TEXT" },
            { name: "closed", type: "TEXT" },
          ],
        },
        rows: [
          { id: 1, Team: "Flight", opened: "2024-03-01", closed: "2024-03-11" },
          { id: 2, Team: "flight", opened: "2024-04-02T10:00:00Z", closed: "" },
          { id: 3, Team: "Ground", opened: "2023-12-31", closed: null },
        ],
      });
      const rows = async (sql: string) => (await store.querySql(sql, acmeOwner)).rows;
      expect(await rows(`SELECT id, ${d.daysBetween("opened", "closed")} AS days FROM events ORDER BY id`)).toEqual([
        { id: 1, days: 10 },
        { id: 2, days: null },
        { id: 3, days: null },
      ]);
      expect(await rows(`SELECT count(*) AS n FROM events WHERE ${d.equalsIgnoreCase("Team", "'FLIGHT'")}`)).toEqual([
        { n: 2 },
      ]);
      expect(
        await rows(`SELECT ${d.datePrefix("opened", 7)} AS m, count(*) AS n FROM events GROUP BY 1 ORDER BY 1`),
      ).toEqual([
        { m: "2023-12", n: 1 },
        { m: "2024-03", n: 1 },
        { m: "2024-04", n: 1 },
      ]);
      expect(await rows(`SELECT ${d.joinValues('"Team"')} AS v FROM events`)).toEqual([
        { v: "Flight, Ground, flight" },
      ]);
      expect(await rows(`SELECT count(*) AS n FROM events WHERE ${d.present("closed")}`)).toEqual([{ n: 1 }]);
      expect(await rows(`SELECT count(*) AS n FROM events WHERE ${d.absent("closed")}`)).toEqual([{ n: 2 }]);
    } finally {
      await store.close();
    }
  });
});
