import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Principal } from "../spec/principal.js";
import type { ScoredDocument } from "../spec/store.js";
import { createSqliteStore, type SqliteStore } from "../stores/sqlite/index.js";
import { makeDoc, tempDir } from "./__fixtures__/corpus.js";
import { chooseRetrieval, createHierarchicalRetriever, HIERARCHICAL_THRESHOLD } from "./hierarchical.js";
import type { RetrieveOptions, Retriever } from "./retriever.js";
import { createRetriever } from "./search.js";

const owner: Principal = { tenant: "default", user: "o", roles: ["*"] };
const staff: Principal = { tenant: "default", user: "s", roles: ["staff"] };

let tmp: ReturnType<typeof tempDir>;
let store: SqliteStore;
let flat: Retriever;
let flatCalls: RetrieveOptions[];

beforeEach(async () => {
  tmp = tempDir();
  store = await createSqliteStore({ path: `${tmp.dir}/ferret.db` });
  await store.putSource({ name: "handbook", tenant: "default", kind: "documents", description: "", acl: [] });
  // The answer chunk says only "20 weeks"; its document is about parental leave (opening and heading).
  await store.writeDocuments([
    makeDoc({
      id: "leave.md",
      source: "handbook",
      title: "Benefits",
      paragraphs: ["This page covers parental leave.", "# Allowance", "The allowance is 20 weeks."],
    }),
    ...["sprints", "releases", "reviews"].map((topic) =>
      makeDoc({
        id: `${topic}.md`,
        source: "handbook",
        title: topic,
        paragraphs: [`About ${topic}.`, `A ${topic} cycle is two weeks; weeks are counted in weeks.`],
      }),
    ),
    makeDoc({
      id: "secret.md",
      source: "handbook",
      title: "Parental leave for executives",
      paragraphs: ["Executives get 40 weeks of parental leave."],
      acl: ["exec"],
    }),
  ]);
  const base = createRetriever({ store });
  flatCalls = [];
  flat = {
    search(query, options) {
      flatCalls.push(options);
      return base.search(query, options);
    },
  };
});

afterEach(async () => {
  await store.close();
  tmp.remove();
});

describe("createHierarchicalRetriever", () => {
  it("searches chunks inside the documents the document pass chose", async () => {
    const chosen: ScoredDocument[][] = [];
    const retriever = createHierarchicalRetriever({ store, base: flat, docs: 1, onDocuments: (d) => chosen.push(d) });
    const found = await retriever.search("parental leave weeks", { principal: staff, k: 2 });
    expect(chosen[0]?.map((d) => d.docId)).toEqual(["leave.md"]);
    expect(found.map((p) => p.id)).toEqual(["leave.md::0", "leave.md::1"]);
    expect(found.every((p) => p.score > 0 && p.score <= 1)).toBe(true);
    expect(flatCalls).toEqual([]);
    // The flat search, for contrast, lets the "weeks" chunks of other documents crowd out the answer.
    const flatFound = await createRetriever({ store }).search("parental leave weeks", { principal: staff, k: 2 });
    expect(flatFound.map((p) => p.id)).not.toContain("leave.md::1");
  });

  it("never reads a document the principal may not read, in either pass", async () => {
    const chosen: string[] = [];
    const retriever = createHierarchicalRetriever({
      store,
      base: flat,
      onDocuments: (d) => chosen.push(...d.map((x) => x.docId)),
    });
    const asStaff = await retriever.search("executives parental leave", { principal: staff, k: 5 });
    expect(chosen).not.toContain("secret.md");
    expect(asStaff.map((p) => p.docId)).not.toContain("secret.md");
    const asOwner = await retriever.search("executives parental leave", { principal: owner, k: 5 });
    expect(asOwner[0]?.docId).toBe("secret.md");
  });

  it("falls back to flat search when the document pass finds nothing, and fills up from it", async () => {
    const retriever = createHierarchicalRetriever({ store, base: flat, docs: 1 });
    const found = await retriever.search("counted", { principal: staff, k: 2 });
    expect(flatCalls).toHaveLength(1);
    expect(found.length).toBe(2);
    expect(found[0]?.text).toContain("counted");
    flatCalls.length = 0;
    const filled = await retriever.search("parental leave weeks", { principal: staff, k: 4 });
    expect(flatCalls).toHaveLength(1);
    expect(filled.slice(0, 2).map((p) => p.id)).toEqual(["leave.md::0", "leave.md::1"]);
    expect(new Set(filled.map((p) => p.id)).size).toBe(filled.length);
    expect(filled.length).toBe(4);
  });

  it("puts the page a query names by its title first, and not with titledFirst off", async () => {
    // A calendar that says more about review weeks than the reviews page does.
    await store.writeDocuments([
      makeDoc({
        id: "calendar.md",
        source: "handbook",
        title: "Team calendar",
        paragraphs: ["Reviews weeks: every reviews cycle has review weeks, and reviews cycle weeks are planned."],
      }),
    ]);
    const query = "weeks of a Reviews cycle";
    const named = await createHierarchicalRetriever({ store, base: flat }).search(query, { principal: staff, k: 2 });
    expect(named[0]?.docId).toBe("reviews.md");
    expect(named[0]?.score).toBe(Math.max(...named.map((p) => p.score)));
    const plain = createHierarchicalRetriever({ store, base: flat, titledFirst: false });
    expect((await plain.search(query, { principal: staff, k: 2 }))[0]?.docId).not.toBe("reviews.md");
  });

  it("leaves one-document, vector and hybrid searches to the base retriever", async () => {
    const retriever = createHierarchicalRetriever({ store, base: flat });
    await retriever.search("weeks", { principal: staff, docId: "sprints.md" });
    await retriever.search("weeks", { principal: staff, mode: "hybrid" });
    await createHierarchicalRetriever({ store, base: flat, defaultMode: "hybrid" }).search("weeks", {
      principal: staff,
    });
    expect(flatCalls.map((c) => c.docId ?? c.mode ?? "default")).toEqual(["sprints.md", "hybrid", "default"]);
  });
});

describe("chooseRetrieval", () => {
  it("goes hierarchical at the threshold", () => {
    expect(chooseRetrieval({ chunks: 1_000 })).toBe("flat");
    expect(chooseRetrieval({ chunks: HIERARCHICAL_THRESHOLD })).toBe("hierarchical");
    expect(chooseRetrieval({ chunks: 10, threshold: 10 })).toBe("hierarchical");
  });
});
