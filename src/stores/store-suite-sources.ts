/**
 * The part of the shared store suite about what identifies stored data (run by `runStoreSuite`): documents
 * are unique per source, a source may hold several SQL tables with tenant-unique names, and the data version
 * moves with every change to what can be read.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Principal } from "../spec/principal.js";
import type { StoreV1, TableWrite } from "../spec/store.js";
import { ACME, acmeOwner, alice, fixtureWrite, GLOBEX, harriet, type OpenStore } from "./store-fixtures.js";

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

export function runSourcesSuite(name: string, open: OpenStore): void {
  describe(`store suite: ${name}: identity of stored data`, () => {
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
        expect(where(await search(harriet, ["gateway"]))).toEqual([
          "wiki_a:README.md:The alpha gateway waits 30 seconds.",
          "wiki_b:README.md:The beta gateway waits 45 seconds.",
        ]);
        expect(where(await search(alice, ["gateway"]))).toEqual([
          "wiki_a:README.md:The alpha gateway waits 30 seconds.",
        ]);
        const near = await store.vectorSearch({
          principal: harriet,
          vector: Float32Array.from([1, 0, 0, 0]),
          k: 10,
          sources: ["wiki_a", "wiki_b"],
          strategy: "exact",
        });
        expect(near.map((h) => h.source)).toEqual(["wiki_a", "wiki_b"]);
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
        const chunk = async (principal: Principal, source?: string) =>
          (await store.getChunks(["README.md::0"], principal, { source })).map((c) => c.text);
        expect(await chunk(harriet, "wiki_b")).toEqual(["The beta gateway waits 45 seconds."]);
        expect(await chunk(harriet)).toEqual(["The alpha gateway waits 30 seconds."]);
        expect(await chunk(alice, "wiki_b")).toEqual([]);
        // One document: its id and its source together.
        expect(where(await search(harriet, ["gateway"], { docId: "README.md", sources: ["wiki_b"] }))).toEqual([
          "wiki_b:README.md:The beta gateway waits 45 seconds.",
        ]);
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
        expect(where(await search(acmeOwner, ["gateway"]))).toEqual([
          "wiki_a:README.md:The alpha gateway waits 30 seconds.",
          "wiki_b:README.md:The beta gateway waits 60 seconds.",
        ]);
        await store.removeDocuments(ACME, ["README.md"], { source: "wiki_a" });
        expect(where(await search(acmeOwner, ["gateway"]))).toEqual([
          "wiki_b:README.md:The beta gateway waits 60 seconds.",
        ]);
        expect((await store.getDocument("README.md", acmeOwner))?.source).toBe("wiki_b");
        expect(await store.getDocument("README.md", alice)).toBeUndefined();
        expect(await store.documentHashes(ACME, "wiki_a")).toEqual(new Map());
        await store.removeSource(ACME, "wiki_b");
        expect(await search(acmeOwner, ["gateway"])).toEqual([]);
      });
    });

    describe("tables", () => {
      it("holds one table per file, names them per tenant, and suffixes a taken name", async () => {
        await store.putSource({ name: "tickets", tenant: ACME, kind: "table", description: "T", acl: [] });
        await store.putSource({ name: "payroll", tenant: ACME, kind: "documents", description: "P", acl: ["hr"] });
        expect(await store.writeTable(table("wiki_a", "data/orders.csv", "orders", ["o1", "o2"]))).toEqual({
          name: "orders",
        });
        expect(await store.writeTable(table("wiki_a", "data/refunds.csv", "refunds", ["r1"]))).toEqual({
          name: "refunds",
        });
        // Another source, another file, the same wanted name (any case): the next free suffix.
        expect(await store.writeTable(table("payroll", "Orders.csv", "Orders", ["p1"]))).toEqual({ name: "Orders_2" });
        // Written again: the same file keeps its name.
        expect(await store.writeTable(table("wiki_a", "data/orders.csv", "orders", ["o1"]))).toEqual({
          name: "orders",
        });
        expect(await store.writeTable(table("payroll", "Orders.csv", "Orders", ["p1", "p2"]))).toEqual({
          name: "Orders_2",
        });
        const wiki = (await store.listSources(alice)).find((s) => s.name === "wiki_a");
        expect(wiki?.tables?.map((t) => [t.name, t.file])).toEqual([
          ["orders", "data/orders.csv"],
          ["refunds", "data/refunds.csv"],
        ]);
        const rows = async (principal: Principal, sql: string) => (await store.querySql(sql, principal)).rows;
        expect(await rows(alice, "SELECT id, _id FROM orders UNION ALL SELECT id, _id FROM refunds")).toEqual([
          { id: "o1", _id: "data/orders.csv#o1" },
          { id: "r1", _id: "data/refunds.csv#r1" },
        ]);
        expect(await rows(harriet, "SELECT count(*) AS n FROM Orders_2")).toEqual([{ n: 2 }]);
        await expect(store.querySql("SELECT * FROM Orders_2", alice)).rejects.toMatchObject({
          name: "SqlInvalidError",
          missingTable: "Orders_2",
        });
      });

      it("drops the tables of files no longer kept, and all of them with their source", async () => {
        await store.writeTable(table("wiki_a", "a.csv", "a", ["1"]));
        await store.writeTable(table("wiki_a", "b.csv", "b", ["1"]));
        await store.removeTables(ACME, "wiki_a", ["b.csv"]);
        expect(
          (await store.listSources(acmeOwner)).find((s) => s.name === "wiki_a")?.tables?.map((t) => t.name),
        ).toEqual(["b"]);
        await expect(store.querySql("SELECT * FROM a", acmeOwner)).rejects.toMatchObject({
          name: "SqlInvalidError",
          missingTable: "a",
        });
        // The freed name can be taken again without a suffix.
        expect(await store.writeTable(table("wiki_b", "a.csv", "a", ["2"]))).toEqual({ name: "a" });
        await store.removeSource(ACME, "wiki_a");
        await expect(store.querySql("SELECT * FROM b", acmeOwner)).rejects.toMatchObject({
          name: "SqlInvalidError",
          missingTable: "b",
        });
      });

      it("refuses reserved and repeated column names", async () => {
        for (const column of ["_id", "rowid", "OID", "_rowid_"]) {
          const bad: TableWrite = {
            ...table("wiki_a", "x.csv", "x", []),
            schema: {
              name: "x",
              primaryKey: "id",
              columns: [
                { name: "id", type: "TEXT" },
                { name: column, type: "TEXT" },
              ],
            },
          };
          await expect(store.writeTable(bad), column).rejects.toMatchObject({ name: "InvalidInputError" });
        }
        const twice: TableWrite = {
          ...table("wiki_a", "x.csv", "x", []),
          schema: {
            name: "x",
            primaryKey: "id",
            columns: [
              { name: "id", type: "TEXT" },
              { name: "ID", type: "TEXT" },
            ],
          },
        };
        await expect(store.writeTable(twice)).rejects.toMatchObject({ name: "InvalidInputError" });
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
        await moved("write a table", () => store.writeTable(table("wiki_a", "a.csv", "a", ["1"])));
        await moved("remove tables", () => store.removeTables(ACME, "wiki_a", []));
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
