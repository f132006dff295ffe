import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { DocumentWrite } from "../../spec/document.js";
import type { Principal } from "../../spec/principal.js";
import { createSqliteStore } from "./index.js";

const DIMS = 32;
const dir = mkdtempSync(join(tmpdir(), "ferret-hnsw-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Deterministic pseudo-random numbers (mulberry32), so the test sees the same vectors every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
}

const next = random(42);
const vector = () => Float32Array.from({ length: DIMS }, next);

function docs(count: number, options: { offset?: number; acl?: (i: number) => string[] } = {}): DocumentWrite[] {
  return Array.from({ length: count }, (_, n) => {
    const i = n + (options.offset ?? 0);
    const id = `doc-${i}`;
    const text = `document number ${i}`;
    return {
      doc: {
        id,
        source: "random",
        tenant: "default",
        title: id,
        acl: options.acl?.(i) ?? [],
        contentHash: String(i),
        text,
        metadata: {},
      },
      chunks: [
        {
          id: `${id}::0`,
          docId: id,
          ordinal: 0,
          text,
          section: [],
          start: 0,
          end: text.length,
          tokens: 3,
          searchText: text,
          embedding: vector(),
        },
      ],
    };
  });
}

const owner: Principal = { tenant: "default", user: "local", roles: ["*"] };
const staff: Principal = { tenant: "default", user: "sam", roles: ["staff"] };

describe("HNSW side index", () => {
  it("recalls at least 90% of the exact top 10 on random vectors, and switches on at the threshold", async () => {
    const path = join(dir, "recall.db");
    const store = await createSqliteStore({ path, hnswThreshold: 2000 });
    await store.writeDocuments(docs(3000));
    let found = 0;
    for (let q = 0; q < 25; q++) {
      const query = vector();
      const exact = await store.vectorSearch({ principal: owner, vector: query, k: 10, strategy: "exact" });
      const approx = await store.vectorSearch({ principal: owner, vector: query, k: 10, strategy: "auto" });
      expect(approx).toHaveLength(10);
      const truth = new Set(exact.map((hit) => hit.id));
      found += approx.filter((hit) => truth.has(hit.id)).length;
      expect(approx[0]!.score).toBeCloseTo(exact[0]!.score, 4);
    }
    expect(found / 250).toBeGreaterThanOrEqual(0.9);
    expect(existsSync(`${path}.${DIMS}.hnsw`)).toBe(true);
    await store.close();
  });

  it("applies ACL filters to HNSW candidates and still fills k", async () => {
    const store = await createSqliteStore({ path: join(dir, "acl.db"), hnswThreshold: 100 });
    await store.writeDocuments(docs(1500, { acl: (i) => (i % 10 === 0 ? [] : ["secret"]) }));
    for (let q = 0; q < 10; q++) {
      const hits = await store.vectorSearch({ principal: staff, vector: vector(), k: 10, strategy: "approximate" });
      expect(hits).toHaveLength(10);
      for (const hit of hits) expect(Number(hit.docId.slice(4)) % 10).toBe(0);
    }
    const one = await store.vectorSearch({
      principal: staff,
      vector: vector(),
      k: 3,
      docId: "doc-20",
      strategy: "approximate",
    });
    expect(one.map((hit) => hit.id)).toEqual(["doc-20::0"]);
    await store.close();
  });

  it("stays current after writes in this process and in another connection", async () => {
    const path = join(dir, "fresh.db");
    const store = await createSqliteStore({ path, hnswThreshold: 10 });
    await store.writeDocuments(docs(500));
    const probe = vector();
    await store.vectorSearch({ principal: owner, vector: probe, k: 5, strategy: "approximate" });

    const [added] = docs(1, { offset: 9000 });
    added!.chunks[0]!.embedding = probe;
    await store.writeDocuments([added!]);
    const afterOwnWrite = await store.vectorSearch({ principal: owner, vector: probe, k: 1, strategy: "approximate" });
    expect(afterOwnWrite[0]!.id).toBe("doc-9000::0");

    const other = await createSqliteStore({ path, hnswThreshold: 10 });
    await other.removeDocuments("default", ["doc-9000"]);
    await other.close();
    const afterOtherWrite = await store.vectorSearch({
      principal: owner,
      vector: probe,
      k: 1,
      strategy: "approximate",
    });
    expect(afterOtherWrite[0]!.id).not.toBe("doc-9000::0");
    await store.close();

    const reopened = await createSqliteStore({ path, hnswThreshold: 10 });
    const hits = await reopened.vectorSearch({ principal: owner, vector: probe, k: 5, strategy: "approximate" });
    expect(hits.map((hit) => hit.id)).not.toContain("doc-9000::0");
    expect(hits).toHaveLength(5);
    await reopened.close();
  });
});
