import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Principal } from "../spec/principal.js";
import type { StoreV1, TableWrite } from "../spec/store.js";
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
 * The `documents` capability suite: sources, documents and chunks, replace semantics, tenant and ACL filters on
 * every read, document ids unique per source, and the data version. Checks into other capabilities (a removed
 * document no longer found by keyword or vector search, a removed table no longer queryable) run where the
 * store declares them.
 */
export function runDocumentsSuite(name: string, open: OpenStore): void {
  runIdentitySuite(name, open);
  describe(`documents suite: ${name}`, () => {
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

    describe("sources", () => {
      it("lists only readable sources, with counts of readable documents and chunks", async () => {
        const forAlice = await store.listSources(alice);
        expect(forAlice.map((s) => s.name)).toEqual(["handbook", "tickets"]);
        const handbook = forAlice.find((s) => s.name === "handbook")!;
        expect(handbook).toMatchObject({
          documents: 2,
          chunks: 3,
          description: "Employee handbook",
          path: "docs/handbook",
        });

        const forHarriet = await store.listSources(harriet);
        expect(forHarriet.map((s) => s.name)).toEqual(["handbook", "payroll", "salaries", "tickets"]);
        expect(forHarriet.find((s) => s.name === "handbook")).toMatchObject({ documents: 3, chunks: 4 });
        expect(forHarriet.find((s) => s.name === "salaries")).toMatchObject({ documents: 1, chunks: 1, acl: ["hr"] });

        const forOlga = await store.listSources(olga);
        expect(forOlga).toHaveLength(1);
        expect(forOlga[0]).toMatchObject({ name: "handbook", tenant: GLOBEX, documents: 1, chunks: 1 });
      });

      it("removes a source with its documents, chunks, vectors and table, leaving other tenants alone", async () => {
        await store.removeSource(ACME, "handbook");
        await store.removeSource(ACME, "tickets");
        expect((await store.listSources(acmeOwner)).map((s) => s.name)).toEqual(["payroll", "salaries"]);
        expect(await store.documentHashes(ACME, "handbook")).toEqual(new Map());
        expect(await store.getDocument("handbook/vacation.md", acmeOwner)).toBeUndefined();
        expect(await store.getChunks(["handbook/vacation.md::0"], acmeOwner)).toEqual([]);
        expect((await store.getDocument("handbook/vacation.md", olga))?.title).toBe("Globex vacation");
        if (has(store, "keyword")) {
          expect(await kw(acmeOwner, ["vacation"])).toSatisfy((hits: { source: string }[]) =>
            hits.every((h) => h.source === "salaries"),
          );
          expect(docIds(await kw(olga, ["vacation"]))).toEqual(["handbook/vacation.md"]);
        }
        if (has(store, "vector")) {
          expect(await vec(acmeOwner, [1, 0, 0, 0])).toSatisfy((hits: { source: string }[]) =>
            hits.every((h) => h.source === "salaries"),
          );
        }
        if (has(store, "tables")) {
          await expect(store.querySql("SELECT count(*) AS n FROM tickets", acmeOwner)).rejects.toMatchObject({
            name: "SqlInvalidError",
            missingTable: "tickets",
          });
        }
      });
    });

    describe("documents", () => {
      it("returns content hashes per tenant and source", async () => {
        const hashes = await store.documentHashes(ACME, "handbook");
        expect([...hashes.keys()].sort()).toEqual([
          "handbook/bonus.md",
          "handbook/security.md",
          "handbook/vacation.md",
        ]);
        expect(hashes.get("handbook/vacation.md")).toBe(fixtureWrite(DOCS[0]!).doc.contentHash);
        expect((await store.documentHashes(GLOBEX, "handbook")).size).toBe(1);
      });

      it("replaces a document's previous version and all its chunks", async () => {
        const v2 = fixtureWrite({
          ...DOCS[0]!,
          paragraphs: ["Employees now receive 30 holiday days."],
          vectors: [[0, 0, 1, 1]],
        });
        await store.writeDocuments([v2]);
        if (has(store, "keyword")) {
          expect(await kw(acmeOwner, ["expire"])).toEqual([]);
          expect(ids(await kw(acmeOwner, ["holiday"]))).toEqual(["handbook/vacation.md::0"]);
        }
        expect(await store.getChunks(["handbook/vacation.md::0", "handbook/vacation.md::1"], acmeOwner)).toHaveLength(
          1,
        );
        expect((await store.getDocument("handbook/vacation.md", acmeOwner))?.text).toBe(
          "Employees now receive 30 holiday days.",
        );
        expect((await store.documentHashes(ACME, "handbook")).get("handbook/vacation.md")).toBe(v2.doc.contentHash);
        if (has(store, "vector")) {
          const vectors = await vec(acmeOwner, [0, 0, 1, 1], { docId: "handbook/vacation.md" });
          expect(vectors).toHaveLength(1);
          expect(vectors[0]!.score).toBeCloseTo(1, 4);
        }
        expect((await store.listSources(acmeOwner)).find((s) => s.name === "handbook")?.chunks).toBe(3);
      });

      it("removes documents with their chunks and vectors", async () => {
        await store.removeDocuments(ACME, ["handbook/security.md"], { source: "handbook" });
        expect(await store.getDocument("handbook/security.md", acmeOwner)).toBeUndefined();
        expect(await store.getChunks(["handbook/security.md::0"], acmeOwner)).toEqual([]);
        if (has(store, "keyword")) expect(await kw(acmeOwner, ["passwords"])).toEqual([]);
        if (has(store, "vector")) {
          expect(ids(await vec(acmeOwner, [0, 1, 0, 0], { k: 1 }))).not.toContain("handbook/security.md::0");
        }
        expect(await store.getDocument("handbook/vacation.md", olga)).toBeDefined();
      });

      it("reads a document only within the tenant and ACL", async () => {
        const own = await store.getDocument("handbook/vacation.md", alice);
        expect(own).toMatchObject({
          title: "Vacation policy",
          tenant: ACME,
          updatedAt: "2024-03-01",
          metadata: { fixture: true },
        });
        expect(await store.getDocument("handbook/bonus.md", alice)).toBeUndefined();
        expect(await store.getDocument("salaries/2024.md", alice)).toBeUndefined();
        expect((await store.getDocument("handbook/bonus.md", harriet))?.acl).toEqual(["hr"]);
        expect((await store.getDocument("handbook/vacation.md", olga))?.title).toBe("Globex vacation");
        expect(await store.getDocument("handbook/security.md", olga)).toBeUndefined();
      });

      it("reads a document's header: every field but the text, by the same rules as the whole document", async () => {
        const asked: [string, Principal][] = [
          ["handbook/vacation.md", alice],
          ["handbook/bonus.md", harriet],
          ["handbook/vacation.md", olga],
        ];
        for (const [id, principal] of asked) {
          const doc = await store.getDocument(id, principal);
          expect(doc).toBeDefined();
          const header = await store.getDocumentHeader(id, principal);
          expect(header).not.toHaveProperty("text");
          expect({ ...header, text: doc?.text }).toEqual(doc);
        }
        expect(await store.getDocumentHeader("handbook/bonus.md", alice)).toBeUndefined();
        expect(await store.getDocumentHeader("salaries/2024.md", alice)).toBeUndefined();
        expect(await store.getDocumentHeader("handbook/security.md", olga)).toBeUndefined();
      });

      it("returns chunks in the order asked, leaving out unreadable ones", async () => {
        const asked = [
          "handbook/vacation.md::1",
          "handbook/bonus.md::0",
          "salaries/2024.md::0",
          "handbook/vacation.md::0",
        ];
        expect(ids(await store.getChunks(asked, alice))).toEqual([
          "handbook/vacation.md::1",
          "handbook/vacation.md::0",
        ]);
        expect(ids(await store.getChunks(asked, harriet))).toEqual(asked);
        const [chunk] = await store.getChunks(["handbook/vacation.md::1"], alice);
        const doc = await store.getDocument("handbook/vacation.md", alice);
        expect(doc!.text.slice(chunk!.start, chunk!.end)).toBe(chunk!.text);
        expect(chunk).toMatchObject({ docId: "handbook/vacation.md", ordinal: 1, section: ["Leave", "Vacation"] });
        expect(chunk!.searchText).toContain("unused");
        const [globex] = await store.getChunks(["handbook/vacation.md::0"], olga);
        expect(globex!.text).toContain("Globex");
      });
    });
  });
}

/** Two folders ingested as two sources, both holding `README.md`; `wiki_b` is hr-only. */
const A = fixtureWrite({
  id: "README.md",
  source: "wiki_a",
  title: "Alpha readme",
  paragraphs: ["The alpha gateway waits 30 seconds."],
  vectors: [[1, 0, 0, 0]],
});
const B = fixtureWrite({
  id: "README.md",
  source: "wiki_b",
  title: "Beta readme",
  paragraphs: ["The beta gateway waits 45 seconds."],
  vectors: [[0.9, 0.1, 0, 0]],
});

const table = (source: string, file: string, name: string, keys: string[]): TableWrite => ({
  tenant: ACME,
  source,
  file,
  schema: { name, primaryKey: "id", columns: [{ name: "id", type: "TEXT" }] },
  rows: keys.map((id) => ({ id })),
});

/** Document ids are unique per source, and the data version moves with every change to what can be read. */
function runIdentitySuite(name: string, open: OpenStore): void {
  describe(`documents suite: ${name}: identity of stored data`, () => {
    let store: StoreV1;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
      for (const [source, acl] of [
        ["wiki_a", []],
        ["wiki_b", ["hr"]],
      ] as const) {
        await store.putSource({ name: source, tenant: ACME, kind: "documents", description: source, acl: [...acl] });
      }
      await store.writeDocuments([A, B]);
    });

    afterEach(async () => {
      await store.close();
      await cleanup();
    });

    const search = (principal: Principal, terms: string[], extra: Record<string, unknown> = {}) =>
      store.keywordSearch({ principal, terms, k: 10, ...extra });
    const where = (hits: { source: string; docId: string; text: string }[]) =>
      hits.map((h) => `${h.source}:${h.docId}:${h.text}`).sort();

    describe("the same document id in two sources", () => {
      it("keeps both, and both are searchable under their own ACL", async () => {
        expect([...(await store.documentHashes(ACME, "wiki_a")).keys()]).toEqual(["README.md"]);
        expect([...(await store.documentHashes(ACME, "wiki_b")).keys()]).toEqual(["README.md"]);
        if (has(store, "keyword")) {
          expect(where(await search(harriet, ["gateway"]))).toEqual([
            "wiki_a:README.md:The alpha gateway waits 30 seconds.",
            "wiki_b:README.md:The beta gateway waits 45 seconds.",
          ]);
          expect(where(await search(alice, ["gateway"]))).toEqual([
            "wiki_a:README.md:The alpha gateway waits 30 seconds.",
          ]);
        }
        if (has(store, "vector")) {
          const near = await store.vectorSearch({
            principal: harriet,
            vector: Float32Array.from([1, 0, 0, 0]),
            k: 10,
            sources: ["wiki_a", "wiki_b"],
            strategy: "exact",
          });
          expect(near.map((h) => h.source)).toEqual(["wiki_a", "wiki_b"]);
        }
        const counts = (await store.listSources(harriet)).filter((s) => s.name.startsWith("wiki_"));
        expect(counts.map((s) => [s.name, s.documents, s.chunks])).toEqual([
          ["wiki_a", 1, 1],
          ["wiki_b", 1, 1],
        ]);
        const docs = await store.documentSearch?.({ principal: harriet, terms: ["readme"], k: 10 });
        if (docs)
          expect(docs.map((d) => `${d.source}:${d.docId}`).sort()).toEqual(["wiki_a:README.md", "wiki_b:README.md"]);
      });

      it("reads by id and source; without a source, the readable one whose source sorts first", async () => {
        const text = async (principal: Principal, source?: string) =>
          (await store.getDocument("README.md", principal, { source }))?.text;
        expect(await text(harriet, "wiki_b")).toBe("The beta gateway waits 45 seconds.");
        expect(await text(harriet, "wiki_a")).toBe("The alpha gateway waits 30 seconds.");
        expect(await text(harriet)).toBe("The alpha gateway waits 30 seconds.");
        expect(await text(alice, "wiki_b")).toBeUndefined();
        expect(await text(alice)).toBe("The alpha gateway waits 30 seconds.");
        const title = async (principal: Principal, source?: string) =>
          (await store.getDocumentHeader("README.md", principal, { source }))?.title;
        expect(await title(harriet, "wiki_b")).toBe("Beta readme");
        expect(await title(harriet)).toBe("Alpha readme");
        expect(await title(alice, "wiki_b")).toBeUndefined();
        const chunk = async (principal: Principal, source?: string) =>
          (await store.getChunks(["README.md::0"], principal, { source })).map((c) => c.text);
        expect(await chunk(harriet, "wiki_b")).toEqual(["The beta gateway waits 45 seconds."]);
        expect(await chunk(harriet)).toEqual(["The alpha gateway waits 30 seconds."]);
        expect(await chunk(alice, "wiki_b")).toEqual([]);
        // One document: its id and its source together.
        if (has(store, "keyword")) {
          expect(where(await search(harriet, ["gateway"], { docId: "README.md", sources: ["wiki_b"] }))).toEqual([
            "wiki_b:README.md:The beta gateway waits 45 seconds.",
          ]);
        }
      });

      it("rewrites and removes one source's document, leaving the other's alone", async () => {
        await store.writeDocuments([
          fixtureWrite({
            id: "README.md",
            source: "wiki_b",
            title: "Beta",
            paragraphs: ["The beta gateway waits 60 seconds."],
          }),
        ]);
        const texts = async () => (await store.getChunks(["README.md::0"], acmeOwner)).map((c) => c.text);
        expect((await store.getChunks(["README.md::0"], acmeOwner, { source: "wiki_b" }))[0]?.text).toBe(
          "The beta gateway waits 60 seconds.",
        );
        if (has(store, "keyword")) {
          expect(where(await search(acmeOwner, ["gateway"]))).toEqual([
            "wiki_a:README.md:The alpha gateway waits 30 seconds.",
            "wiki_b:README.md:The beta gateway waits 60 seconds.",
          ]);
        }
        await store.removeDocuments(ACME, ["README.md"], { source: "wiki_a" });
        expect(await texts()).toEqual(["The beta gateway waits 60 seconds."]);
        if (has(store, "keyword")) {
          expect(where(await search(acmeOwner, ["gateway"]))).toEqual([
            "wiki_b:README.md:The beta gateway waits 60 seconds.",
          ]);
        }
        expect((await store.getDocument("README.md", acmeOwner))?.source).toBe("wiki_b");
        expect(await store.getDocument("README.md", alice)).toBeUndefined();
        expect(await store.documentHashes(ACME, "wiki_a")).toEqual(new Map());
        await store.removeSource(ACME, "wiki_b");
        expect(await texts()).toEqual([]);
        if (has(store, "keyword")) expect(await search(acmeOwner, ["gateway"])).toEqual([]);
      });
    });

    describe("data version", () => {
      it("moves with every change to what the tenant can read, and only then", async () => {
        let last = await store.dataVersion(ACME);
        const other = await store.dataVersion(GLOBEX);
        const moved = async (what: string, change: () => Promise<unknown>) => {
          await change();
          const now = await store.dataVersion(ACME);
          expect(now, what).toBeGreaterThan(last);
          last = now;
        };
        const wiki = { name: "wiki_a", tenant: ACME, kind: "documents" as const, description: "wiki_a", acl: [] };
        await moved("write documents", () => store.writeDocuments([A]));
        await moved("remove documents", () => store.removeDocuments(ACME, ["README.md"], { source: "wiki_a" }));
        await moved("source ACL", () => store.putSource({ ...wiki, acl: ["hr"] }));
        await moved("source description", () => store.putSource({ ...wiki, acl: ["hr"], description: "new" }));
        if (has(store, "tables")) {
          await moved("write a table", () => store.writeTable(table("wiki_a", "a.csv", "a", ["1"])));
          await moved("remove tables", () => store.removeTables(ACME, "wiki_a", []));
        }
        await moved("remove a source", () => store.removeSource(ACME, "wiki_b"));
        // Registering a source again unchanged, and removing nothing, change nothing readable.
        await store.putSource({ ...wiki, acl: ["hr"], description: "new" });
        await store.removeDocuments(ACME, [], { source: "wiki_a" });
        expect(await store.dataVersion(ACME)).toBe(last);
        expect(await store.dataVersion(GLOBEX)).toBe(other);
      });
    });
  });
}
