import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { DocumentWrite } from "../../spec/document.js";
import { MissingDependencyError } from "../../spec/errors.js";
import type { Principal } from "../../spec/principal.js";
import { StoreContext } from "./context.js";
import { writeDocuments } from "./documents.js";
import { HnswIndexes } from "./hnsw.js";
import { createSqliteStore } from "./index.js";
import { openDatabase } from "./schema.js";
import { vectorSearch } from "./vector-search.js";

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
    let sameBest = 0;
    for (let q = 0; q < 25; q++) {
      const query = vector();
      const exact = await store.vectorSearch({ principal: owner, vector: query, k: 10, strategy: "exact" });
      const approx = await store.vectorSearch({ principal: owner, vector: query, k: 10, strategy: "auto" });
      expect(approx).toHaveLength(10);
      const truth = new Set(exact.map((hit) => hit.id));
      found += approx.filter((hit) => truth.has(hit.id)).length;
      if (Math.abs(approx[0]!.score - exact[0]!.score) < 1e-4) sameBest++;
    }
    expect(found / 250).toBeGreaterThanOrEqual(0.9);
    // The graph is built on all cores, so it differs run to run; an approximate index may miss the best hit of
    // an odd query (seen here: 1 in 25), never most of them.
    expect(sameBest / 25).toBeGreaterThanOrEqual(0.9);
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
    await other.removeDocuments("default", ["doc-9000"], { source: "random" });
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

  it("builds the index at write time once a dimension is large, and keeps it in step with later writes", () => {
    const path = join(dir, "eager.db");
    const ctx = new StoreContext({ db: openDatabase({ path, readonly: false }), path, readonly: false });
    const hnsw = new HnswIndexes(ctx, { buildAt: 300 });
    const write = (batch: DocumentWrite[]) => {
      const { changes, versions } = writeDocuments(ctx, batch);
      hnsw.apply(changes, versions);
    };
    write(docs(200, { offset: 20_000 }));
    expect(existsSync(`${path}.${DIMS}.hnsw`)).toBe(false);
    write(docs(200, { offset: 20_200 }));
    expect(existsSync(`${path}.${DIMS}.hnsw`)).toBe(true);
    const [late] = docs(1, { offset: 29_999 });
    const probe = vector();
    late!.chunks[0]!.embedding = probe;
    write([late!]);
    write(docs(1, { offset: 20_000 })); // replaces a vector: removed and added again
    expect(hnsw.size(DIMS)).toBe(401);
    const [nearest] = hnsw.search(DIMS, probe, 3);
    const rowid = ctx.stmt("SELECT rowid FROM chunks WHERE id = 'doc-29999::0'").get() as { rowid: number };
    expect(nearest).toMatchObject({ rowid: rowid.rowid });
    expect(nearest!.distance).toBeCloseTo(0, 2);
    ctx.db.close();
  });

  it("loads usearch only for vector search, and works when node runs without a main script", () => {
    const index = join(fileURLToPath(new URL(".", import.meta.url)), "index.ts");
    const script = `
      import { createRequire } from "node:module";
      const { createSqliteStore } = await import(${JSON.stringify(index)});
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes("usearch"));
      const store = await createSqliteStore({ path: ":memory:" });
      const principal = { tenant: "default", user: "u", roles: ["*"] };
      await store.keywordSearch({ principal, terms: ["x"], k: 3 });
      const before = loaded();
      const chunk = { id: "d::0", docId: "d", ordinal: 0, text: "x", section: [], start: 0, end: 1, tokens: 1, searchText: "x", embedding: Float32Array.from([1, 0, 0]) };
      await store.writeDocuments([{ doc: { id: "d", source: "s", tenant: "default", title: "d", acl: [], contentHash: "h", text: "x", metadata: {} }, chunks: [chunk] }]);
      const hits = await store.vectorSearch({ principal, vector: Float32Array.from([1, 0, 0]), k: 1, strategy: "approximate" });
      console.log(JSON.stringify({ before, after: loaded(), hit: hits[0]?.id }));
      await store.close();`;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stderr).not.toContain("Maximum call stack");
    expect(JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}")).toEqual({
      before: false,
      after: true,
      hit: "d::0",
    });
  });
});

describe("HNSW side index without usearch (an optional peer dependency)", () => {
  const setUp = (name: string) => {
    const path = join(dir, name);
    const ctx = new StoreContext({ db: openDatabase({ path, readonly: false }), path, readonly: false });
    let asked = 0;
    const hnsw = new HnswIndexes(ctx, {
      buildAt: 50,
      loadUsearch: () => {
        asked++;
        return undefined;
      },
    });
    const { changes, versions } = writeDocuments(ctx, docs(80, { offset: 40_000 }));
    hnsw.apply(changes, versions);
    return { ctx, hnsw, path, asked: () => asked };
  };

  it("writes leave no index and auto search is exact (sqlite-vec)", () => {
    const { ctx, hnsw, path, asked } = setUp("absent.db");
    expect(hnsw.available).toBe(false);
    expect(asked()).toBe(1);
    expect(existsSync(`${path}.${DIMS}.hnsw`)).toBe(false);
    const probe = vector();
    const options = { hnsw, hnswThreshold: 10 };
    const auto = vectorSearch(ctx, { principal: owner, vector: probe, k: 5, strategy: "auto" }, options);
    const exact = vectorSearch(ctx, { principal: owner, vector: probe, k: 5, strategy: "exact" }, options);
    expect(auto).toHaveLength(5);
    expect(auto.map((hit) => hit.id)).toEqual(exact.map((hit) => hit.id));
    ctx.db.close();
  });

  it("an approximate search names the package to install", () => {
    const { ctx, hnsw } = setUp("absent-approx.db");
    const search = () =>
      vectorSearch(
        ctx,
        { principal: owner, vector: vector(), k: 5, strategy: "approximate" },
        { hnsw, hnswThreshold: 10 },
      );
    expect(search).toThrow(MissingDependencyError);
    expect(search).toThrow(/approximate vector search needs the optional package usearch.*npm install usearch/);
    ctx.db.close();
  });
});
