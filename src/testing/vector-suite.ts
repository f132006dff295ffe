import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Principal } from "../spec/principal.js";
import type { StoreV1 } from "../spec/store.js";
import {
  ACME,
  acmeOwner,
  alice,
  DOCS,
  docIds,
  fixtureWrite,
  GLOBEX,
  harriet,
  has,
  ids,
  type OpenStore,
  olga,
  seed,
} from "./fixtures.js";

/**
 * The `vector` capability suite: cosine nearest neighbours (exact and approximate), ACL, tenant and filters
 * inside the search, one embedder and dimension per tenant, and the embedding cache.
 */
export function runVectorSuite(name: string, open: OpenStore): void {
  describe(`vector suite: ${name}`, () => {
    let store: StoreV1;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
      await seed(store);
    });

    afterEach(async () => {
      await store.close();
      await cleanup();
    });

    const kw = (principal: Principal, terms: string[], extra: Record<string, unknown> = {}) =>
      store.keywordSearch({ principal, terms, k: 10, ...extra });
    const vec = (principal: Principal, vector: number[], extra: Record<string, unknown> = {}) =>
      store.vectorSearch({ principal, vector: Float32Array.from(vector), k: 10, strategy: "exact", ...extra });

    describe("vector search", () => {
      it("finds nearest chunks by cosine similarity", async () => {
        const hits = await vec(acmeOwner, [1, 0.05, 0, 0], { k: 2 });
        expect(ids(hits)).toEqual(["handbook/vacation.md::0", "handbook/vacation.md::1"]);
        expect(hits[0]!.score).toBeCloseTo(1 / Math.hypot(1, 0.05), 4);
        expect(hits[0]!.raw).toBe(hits[0]!.score);
        expect(hits[0]).toMatchObject({
          title: "Vacation policy",
          section: "Leave > Vacation",
          updatedAt: "2024-03-01",
        });
        const approximate = await vec(acmeOwner, [1, 0.05, 0, 0], { k: 2, strategy: "approximate" });
        expect(ids(approximate)).toEqual(ids(hits));
      });

      it("applies ACLs and tenants inside the search, even when k is small", async () => {
        for (const strategy of ["exact", "approximate"] as const) {
          const nearBonus = await vec(alice, [0, 0, 1, 0], { k: 1, strategy });
          expect(nearBonus).toHaveLength(1);
          expect(nearBonus[0]!.docId).not.toBe("handbook/bonus.md");
          expect(docIds(await vec(alice, [0, 0, 0.5, 0.5], { strategy }))).toEqual([
            "handbook/security.md",
            "handbook/vacation.md",
          ]);
          expect((await vec(harriet, [0, 0, 1, 0], { k: 1, strategy }))[0]!.docId).toBe("handbook/bonus.md");
          expect((await vec(olga, [0, 0, 1, 0], { strategy })).map((h) => h.text)).toEqual([
            "Globex employees receive 10 vacation days.",
          ]);
        }
      });

      it("filters by sources, document and date", async () => {
        expect(docIds(await vec(harriet, [1, 0, 0, 0], { sources: ["salaries"] }))).toEqual(["salaries/2024.md"]);
        expect(docIds(await vec(acmeOwner, [1, 0, 0, 0], { docId: "handbook/security.md" }))).toEqual([
          "handbook/security.md",
        ]);
        expect(docIds(await vec(acmeOwner, [1, 0, 0, 0], { since: "2024-02-01" }))).toEqual([
          "handbook/bonus.md",
          "handbook/vacation.md",
        ]);
      });

      it("refuses vectors of another dimension and writes nothing from that batch", async () => {
        const good = fixtureWrite({
          id: "handbook/new.md",
          source: "handbook",
          title: "New",
          paragraphs: ["fresh words"],
          vectors: [[1, 1, 0, 0]],
        });
        const bad = fixtureWrite({
          id: "handbook/wide.md",
          source: "handbook",
          title: "Wide",
          paragraphs: ["wide words"],
          vectors: [[1, 0, 0, 0, 0, 0, 0, 0]],
        });
        await expect(store.writeDocuments([good, bad])).rejects.toMatchObject({ name: "EmbedderMismatchError" });
        await expect(store.writeDocuments([bad])).rejects.toThrow(/new --db|same embedder/);
        expect(await store.getDocument("handbook/new.md", acmeOwner)).toBeUndefined();
        expect(await store.getDocument("handbook/wide.md", acmeOwner)).toBeUndefined();
        if (has(store, "keyword")) expect(await kw(acmeOwner, ["fresh", "wide"])).toEqual([]);
        const otherTenant = fixtureWrite({ ...DOCS[4]!, tenant: "initech", vectors: [[1, 0, 0, 0, 0, 0, 0, 0]] });
        await store.writeDocuments([otherTenant]);
        expect(
          (
            await store.vectorSearch({
              principal: { ...olga, tenant: "initech" },
              vector: new Float32Array(8).fill(1),
              k: 1,
            })
          ).length,
        ).toBe(1);
      });

      it("refuses a query vector of another dimension, naming the tenant's recorded embedder", async () => {
        const wide = [1, 0, 0, 0, 0, 0, 0, 0];
        await expect(vec(acmeOwner, wide)).rejects.toMatchObject({
          name: "EmbedderMismatchError",
          context: { tenant: ACME, expected: { dimensions: 4 }, got: { dimensions: 8 } },
        });
        await store.setEmbedderInfo(ACME, { id: "test:four", dimensions: 4 });
        for (const strategy of ["exact", "auto"] as const) {
          const refused = vec(acmeOwner, wide, { strategy });
          await expect(refused).rejects.toMatchObject({
            name: "EmbedderMismatchError",
            context: { expected: { id: "test:four", dimensions: 4 }, got: { dimensions: 8 } },
          });
          await expect(refused).rejects.toThrow(/test:four \(4 dimensions\)/);
        }
        // A tenant without vectors finds nothing, whatever the dimension.
        expect(await vec({ ...olga, tenant: "initech" }, wide)).toEqual([]);
      });

      it("records the embedder per tenant and refuses a different one once vectors exist", async () => {
        expect(await store.embedderInfo(ACME)).toBeUndefined();
        await store.setEmbedderInfo(ACME, { id: "test:four", dimensions: 4 });
        expect(await store.embedderInfo(ACME)).toEqual({ id: "test:four", dimensions: 4 });
        expect(await store.embedderInfo(GLOBEX)).toBeUndefined();
        await expect(store.setEmbedderInfo(ACME, { id: "test:eight", dimensions: 8 })).rejects.toMatchObject({
          name: "EmbedderMismatchError",
        });
        expect(await store.embedderInfo(ACME)).toEqual({ id: "test:four", dimensions: 4 });
      });

      it("skips chunks without vectors", async () => {
        await store.writeDocuments([
          fixtureWrite({ id: "handbook/plain.md", source: "handbook", title: "Plain", paragraphs: ["no vector here"] }),
        ]);
        expect(await store.getDocument("handbook/plain.md", acmeOwner)).toBeDefined();
        if (has(store, "keyword")) expect(ids(await kw(acmeOwner, ["vector"]))).toEqual(["handbook/plain.md::0"]);
        expect(docIds(await vec(acmeOwner, [1, 1, 1, 1], { k: 20 }))).not.toContain("handbook/plain.md");
      });
    });

    describe("embedding cache", () => {
      it("returns cached vectors by model and content hash", async () => {
        await store.cacheEmbeddings(
          "m1",
          new Map([
            ["h1", Float32Array.from([0.5, 0.25])],
            ["h2", Float32Array.from([1, 2])],
          ]),
        );
        const hits = await store.cachedEmbeddings("m1", ["h1", "h3"]);
        expect([...hits.keys()]).toEqual(["h1"]);
        expect([...hits.get("h1")!]).toEqual([0.5, 0.25]);
        expect((await store.cachedEmbeddings("m2", ["h1", "h2"])).size).toBe(0);
      });
    });
  });
}
