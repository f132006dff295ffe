import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGraphSuite } from "../graph-suite.js";
import { runStoreSuite } from "../store-suite.js";
import { createPostgresStore } from "./index.js";
import { clusterAvailable, SERVER_START_MS, startCluster, startPglite, type TestServer } from "./test-servers.js";

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
}, SERVER_START_MS);

afterAll(async () => {
  for (const server of started) await (await server).stop();
});

function opener(server: () => Promise<TestServer>) {
  return async () => {
    const url = await (await server()).database();
    const store = await createPostgresStore({ url, poolSize: 4 });
    return { store, cleanup: async () => {} };
  };
}

runStoreSuite("postgres (PGlite)", opener(pglite), { stopsSql: false });
runGraphSuite("postgres (PGlite)", opener(pglite));
if (clusterAvailable()) {
  runStoreSuite("postgres 15 (cluster)", opener(cluster));
  runGraphSuite("postgres 15 (cluster)", opener(cluster));
}

describe("extensions detected at start", () => {
  it("PGlite has pgvector and pg_textsearch: BM25 ranking, nothing reported off", async () => {
    const warnings: string[] = [];
    const store = await createPostgresStore({
      url: await (await pglite()).database(),
      onWarning: (m) => warnings.push(m),
    });
    try {
      expect(store.keywordRanking).toBe("bm25");
      expect(store.missing).toEqual([]);
      expect(warnings).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!clusterAvailable())(
    "PostgreSQL 15 without the extensions names each feature that is off and how to enable it",
    async () => {
      const warnings: string[] = [];
      const store = await createPostgresStore({
        url: await (await cluster()).database(),
        onWarning: (m) => warnings.push(m),
      });
      try {
        expect(store.keywordRanking).toBe("ts_rank_cd");
        expect(store.missing.map((m) => m.feature).sort()).toEqual(["BM25 keyword ranking", "vector index"]);
        expect(warnings.join("\n")).toMatch(/vector index is off: .*CREATE EXTENSION vector/);
        expect(warnings.join("\n")).toMatch(/BM25 keyword ranking is off: .*CREATE EXTENSION pg_textsearch/);
      } finally {
        await store.close();
      }
    },
  );
});
