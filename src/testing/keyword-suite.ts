import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Principal } from "../spec/principal.js";
import type { StoreV1 } from "../spec/store.js";
import { acmeOwner, alice, DOCS, docIds, harriet, ids, type OpenStore, olga, seed } from "./fixtures.js";

/** The `keyword` capability suite: BM25 ranking, inflections, query syntax as words, ACL, tenant and filters. */
export function runKeywordSuite(name: string, open: OpenStore): void {
  describe(`keyword suite: ${name}`, () => {
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
    const _vec = (principal: Principal, vector: number[], extra: Record<string, unknown> = {}) =>
      store.vectorSearch({ principal, vector: Float32Array.from(vector), k: 10, strategy: "exact", ...extra });

    describe("keyword search", () => {
      it("ranks with BM25 and returns positive raw scores with passage fields", async () => {
        const hits = await kw(acmeOwner, ["passwords", "badge"]);
        expect(hits[0]).toMatchObject({
          id: "handbook/security.md::0",
          docId: "handbook/security.md",
          source: "handbook",
          title: "Security",
          updatedAt: "2023-06-15",
        });
        expect(hits[0]!.raw).toBeGreaterThan(0);
        expect(hits[0]!.score).toBe(hits[0]!.raw);
        const vacation = (await kw(acmeOwner, ["expire"]))[0]!;
        expect(vacation.section).toBe("Leave > Vacation");
        expect(vacation.text).toBe("Unused vacation days expire at the end of March.");
        const first = DOCS[0]!.paragraphs[0]!;
        expect([vacation.start, vacation.end]).toEqual([first.length + 2, first.length + 2 + vacation.text.length]);
        const scores = (await kw(acmeOwner, ["vacation"])).map((h) => h.raw);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
      });

      it("weights title matches above body matches", async () => {
        const hits = await kw(acmeOwner, ["security", "payroll"]);
        expect(hits[0]!.docId).toBe("handbook/security.md");
      });

      it("matches other inflections and treats query syntax as plain words", async () => {
        expect(ids(await kw(acmeOwner, ["expiring"]))).toEqual(["handbook/vacation.md::1"]);
        expect(await kw(acmeOwner, ['"', "NEAR(", "*", "OR", "NOT", "col:x", "^"])).toEqual([]);
        expect(await kw(acmeOwner, [])).toEqual([]);
      });

      it("applies document and source ACLs inside the search", async () => {
        expect(docIds(await kw(alice, ["vacation"]))).toEqual(["handbook/vacation.md"]);
        expect(docIds(await kw(harriet, ["vacation"]))).toEqual([
          "handbook/bonus.md",
          "handbook/vacation.md",
          "salaries/2024.md",
        ]);
        expect(await kw(alice, ["bonus", "salary"])).toEqual([]);
        expect(docIds(await kw(alice, ["vacation"], { k: 1 }))).toEqual(["handbook/vacation.md"]);
      });

      it("never crosses tenants", async () => {
        const hits = await kw(olga, ["vacation", "passwords", "bonus"]);
        expect(hits.map((h) => h.text)).toEqual(["Globex employees receive 10 vacation days."]);
        expect((await kw(acmeOwner, ["globex"])).length).toBe(0);
      });

      it("filters by sources, document and date", async () => {
        expect(docIds(await kw(harriet, ["vacation"], { sources: ["salaries"] }))).toEqual(["salaries/2024.md"]);
        expect(docIds(await kw(alice, ["vacation"], { sources: ["salaries"] }))).toEqual([]);
        expect(ids(await kw(acmeOwner, ["vacation"], { docId: "handbook/vacation.md" })).sort()).toEqual([
          "handbook/vacation.md::0",
          "handbook/vacation.md::1",
        ]);
        expect(docIds(await kw(acmeOwner, ["vacation"], { since: "2024-02-01" }))).toEqual([
          "handbook/bonus.md",
          "handbook/vacation.md",
        ]);
      });
    });
  });
}
