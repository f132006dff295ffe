import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeDoc, tempDir } from "../../retrieval/__fixtures__/corpus.js";
import type { Principal } from "../../spec/principal.js";
import { queryTerms } from "../../text/tokenize.js";
import { createSqliteStore, type SqliteStore } from "./index.js";

const owner: Principal = { tenant: "default", user: "o", roles: ["*"] };
const staff: Principal = { tenant: "default", user: "s", roles: ["staff"] };

let tmp: ReturnType<typeof tempDir>;
let path: string;
let store: SqliteStore;

const filler = "Background text about the company history and its offices. ".repeat(20);

beforeEach(async () => {
  tmp = tempDir();
  path = `${tmp.dir}/ferret.db`;
  store = await createSqliteStore({ path });
  await store.putSource({ name: "handbook", tenant: "default", kind: "documents", description: "", acl: [] });
  await store.putSource({ name: "hr", tenant: "default", kind: "documents", description: "", acl: ["hr"] });
  await store.writeDocuments([
    makeDoc({ id: "travel.md", source: "handbook", title: "Travel", paragraphs: ["Book trains early.", filler] }),
    makeDoc({
      id: "leave.md",
      source: "handbook",
      title: "Time off",
      paragraphs: ["This page covers holidays.", "# Parental leave", "It lasts 20 weeks.", filler, "Glacier trips"],
    }),
    makeDoc({ id: "secret.md", source: "handbook", title: "Parental budget", paragraphs: ["x"], acl: ["hr"] }),
    makeDoc({ id: "pay.md", source: "hr", title: "Parental pay", paragraphs: ["Paid at 90%."] }),
  ]);
});

afterEach(async () => {
  await store.close();
  tmp.remove();
});

const search = (q: string, principal: Principal = owner, extra: object = {}) =>
  store.documentSearch({ principal, terms: queryTerms(q), k: 10, ...extra });

describe("document index", () => {
  it("finds documents by title, headings and opening, not by text past the opening", async () => {
    expect((await search("travel")).map((d) => d.docId)).toEqual(["travel.md"]);
    expect((await search("parental leave")).map((d) => d.docId)).toContain("leave.md");
    expect((await search("holidays")).map((d) => d.docId)).toEqual(["leave.md"]);
    expect(await search("glacier")).toEqual([]);
    const [hit] = await search("travel");
    expect(hit).toMatchObject({ source: "handbook", title: "Travel" });
    expect(hit?.raw).toBeGreaterThan(0);
  });

  it("applies tenant, document and source ACLs, sources and since in the query", async () => {
    expect((await search("parental")).map((d) => d.docId).sort()).toEqual(["leave.md", "pay.md", "secret.md"]);
    expect((await search("parental", staff)).map((d) => d.docId)).toEqual(["leave.md"]);
    expect(await search("parental", { ...owner, tenant: "other" })).toEqual([]);
    expect((await search("parental", owner, { sources: ["hr"] })).map((d) => d.docId)).toEqual(["pay.md"]);
    expect(await search("parental", owner, { since: "2030-01-01" })).toEqual([]);
  });

  it("follows replacement and removal of documents and sources", async () => {
    await store.writeDocuments([
      makeDoc({ id: "travel.md", source: "handbook", title: "Expenses", paragraphs: ["Receipts."] }),
    ]);
    expect(await search("travel")).toEqual([]);
    expect((await search("receipts")).map((d) => d.docId)).toEqual(["travel.md"]);
    await store.removeDocuments("default", ["travel.md"], { source: "handbook" });
    expect(await search("receipts")).toEqual([]);
    await store.removeSource("default", "hr");
    expect((await search("parental")).map((d) => d.docId).sort()).toEqual(["leave.md", "secret.md"]);
  });

  it("is built for documents stored before the index existed", async () => {
    await store.close();
    const raw = new Database(path);
    raw.exec("DROP TABLE docs_fts");
    raw.close();
    store = await createSqliteStore({ path });
    expect((await search("holidays")).map((d) => d.docId)).toEqual(["leave.md"]);
    expect((await search("parental leave")).map((d) => d.docId)).toContain("leave.md");
  });

  it("restricts keyword search to the given documents", async () => {
    const hits = await store.keywordSearch({ principal: owner, terms: ["parental"], k: 10, docIds: ["pay.md"] });
    expect(hits.map((h) => h.docId)).toEqual(["pay.md"]);
    const none = await store.keywordSearch({ principal: staff, terms: ["parental"], k: 10, docIds: ["pay.md"] });
    expect(none).toEqual([]);
  });
});
