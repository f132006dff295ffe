/**
 * pgvector's features by version: HNSW from 0.5, iterative index scans (`hnsw.iterative_scan`) from 0.8. On an
 * older pgvector that setting does not exist and setting it is an error, so the store reads the installed
 * version at start and sets it only where it exists.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { acmeOwner, fixtureWrite } from "../../testing/index.js";
import { createPostgresStore } from "./index.js";
import { vectorFeatures } from "./schema.js";
import { type VectorOptions, vectorSql } from "./search.js";
import { describeOnServers } from "./test-servers.js";

describe("vectorFeatures", () => {
  it("reads HNSW from 0.5 and iterative scans from 0.8, comparing numbers, not text", () => {
    expect(vectorFeatures("0.8.0")).toEqual({ version: "0.8.0", hnsw: true, iterativeScan: true });
    expect(vectorFeatures("0.7.4")).toEqual({ version: "0.7.4", hnsw: true, iterativeScan: false });
    expect(vectorFeatures("0.5.0")).toEqual({ version: "0.5.0", hnsw: true, iterativeScan: false });
    expect(vectorFeatures("0.4.4")).toEqual({ version: "0.4.4", hnsw: false, iterativeScan: false });
    expect(vectorFeatures("0.10.1")).toEqual({ version: "0.10.1", hnsw: true, iterativeScan: true });
    expect(vectorFeatures("1.0.0")).toEqual({ version: "1.0.0", hnsw: true, iterativeScan: true });
  });

  it("has nothing without pgvector or with a version it cannot read", () => {
    expect(vectorFeatures(undefined)).toEqual({ hnsw: false, iterativeScan: false });
    expect(vectorFeatures("dev")).toEqual({ version: "dev", hnsw: false, iterativeScan: false });
  });
});

describe("the HNSW settings of a vector search", () => {
  const query = { principal: acmeOwner, vector: Float32Array.from([0.5, 0.5, 0, 0]), k: 4 };
  const options = (iterativeScan: boolean): VectorOptions => ({
    vector: true,
    hnsw: true,
    iterativeScan,
    hnswThreshold: 100,
  });

  it("set hnsw.iterative_scan only on a pgvector that has it, and the search width on every HNSW search", () => {
    for (const strategy of ["approximate", "auto"] as const) {
      expect(vectorSql({ ...query, strategy }, 4, options(true))).toContain("set_config('hnsw.iterative_scan'");
      const old = vectorSql({ ...query, strategy }, 4, options(false));
      expect(old).not.toContain("hnsw.iterative_scan");
      expect(old).toContain("set_config('hnsw.ef_search'");
    }
  });

  it("turn JIT off before every search, whatever the strategy and whether pgvector or its index is there", () => {
    for (const strategy of ["exact", "approximate", "auto"] as const)
      for (const [vector, hnsw] of [
        [true, true],
        [true, false],
        [false, false],
      ] as const) {
        const sql = vectorSql({ ...query, strategy }, 4, { ...options(true), vector, hnsw });
        const statements = sql.split(/;\s/);
        expect(statements[0]).toMatch(/^SELECT set_config\('jit', 'off', true\)/);
        expect(statements.length).toBeGreaterThan(1);
      }
  });

  it("set nothing of HNSW for an exact search or where there is no HNSW index", () => {
    expect(vectorSql({ ...query, strategy: "exact" }, 4, options(true))).not.toContain("hnsw.");
    const noIndex = { ...options(false), hnsw: false };
    expect(vectorSql({ ...query, strategy: "approximate" }, 4, noIndex)).not.toContain("hnsw.");
  });
});

/** Twelve chunks of 4-d vectors, one document per chunk. */
function writes() {
  return Array.from({ length: 12 }, (_, d) =>
    fixtureWrite({
      id: `memo/m${d}.md`,
      source: "memo",
      title: `Memo ${d}`,
      paragraphs: [`Memo number ${d} about the spare parts.`],
      vectors: [[Math.cos(d / 3), Math.sin(d / 3), d / 12, 1]],
    }),
  );
}

/** Sets pgvector's recorded version (as a superuser) and returns the one it replaced. */
async function recordVersion(url: string, version: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // PGlite's connections share one session, where a store's pool may have switched role.
    await client.query("RESET ROLE");
    const before = await client.query<{ v: string }>(
      "SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'",
    );
    await client.query("UPDATE pg_extension SET extversion = $1 WHERE extname = 'vector'", [version]);
    return before.rows[0]?.v ?? "";
  } finally {
    await client.end();
  }
}

describeOnServers(
  (kind) => `pgvector's version read at start (${kind})`,
  (server) => {
    it("reports the installed version; before 0.8 it names iterative scans as off and still searches the index", async () => {
      const { pgvector } = await server();
      const url = await (await server()).database();
      const store = await createPostgresStore({ url, poolSize: 2 });
      if (!pgvector) {
        // No pgvector on this server (the PostgreSQL 15 of the test machines, or FERRET_TEST_PGVECTOR=off): no
        // index, no iterative scans.
        await store.close();
        expect(store.vectorFeatures).toEqual({ hnsw: false, iterativeScan: false });
        expect(store.missing.map((m) => m.feature)).toContain("vector index");
        return;
      }
      try {
        expect(store.vectorFeatures.version).toBeDefined();
        expect(store.vectorFeatures.hnsw).toBe(true);
        expect(store.vectorFeatures.iterativeScan).toBe(vectorFeatures(store.vectorFeatures.version).iterativeScan);
        await store.writeDocuments(writes());
        const query = { principal: acmeOwner, vector: Float32Array.from([1, 0, 0, 1]), k: 5 };
        const exact = await store.vectorSearch({ ...query, strategy: "exact" });
        expect(exact.map((h) => h.docId)).toEqual([
          "memo/m0.md",
          "memo/m1.md",
          "memo/m2.md",
          "memo/m3.md",
          "memo/m4.md",
        ]);
        expect((await store.vectorSearch({ ...query, strategy: "approximate" })).map((h) => h.id)).toEqual(
          exact.map((h) => h.id),
        );
      } finally {
        await store.close();
      }
      const installed = await recordVersion(url, "0.7.4");
      try {
        const warnings: string[] = [];
        const old = await createPostgresStore({ url, poolSize: 2, onWarning: (m) => warnings.push(m) });
        try {
          expect(old.vectorFeatures).toEqual({ version: "0.7.4", hnsw: true, iterativeScan: false });
          // Of pgvector's features only iterative scans are off (a server may lack pg_textsearch as well).
          expect(old.missing.map((m) => m.feature).filter((f) => f !== "pg_textsearch index")).toEqual([
            "iterative vector index scans",
          ]);
          expect(warnings.join("\n")).toMatch(/pgvector 0\.7\.4 has no iterative index scans/);
          const query = { principal: acmeOwner, vector: Float32Array.from([0, 1, 1, 1]), k: 3 };
          const approx = await old.vectorSearch({ ...query, strategy: "approximate" });
          expect(approx.map((h) => h.id)).toEqual(
            (await old.vectorSearch({ ...query, strategy: "exact" })).map((h) => h.id),
          );
          expect(approx).toHaveLength(3);
        } finally {
          await old.close();
        }
      } finally {
        await recordVersion(url, installed);
      }
    }, 120_000);
  },
);
