import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeDoc, tempDir } from "../retrieval/__fixtures__/corpus.js";
import { createSubQueryCache } from "../retrieval/cache.js";
import type { Retriever } from "../retrieval/retriever.js";
import { createRetriever } from "../retrieval/search.js";
import type { Principal } from "../spec/principal.js";
import { createSqliteStore, type SqliteStore } from "../stores/sqlite/index.js";
import { createCachedExecutor } from "./cached-executor.js";
import type { ToolContext } from "./define-tool.js";
import { createToolset } from "./toolset.js";

const hrStaff: Principal = { tenant: "default", user: "alice", roles: ["staff", "hr"] };
const staff: Principal = { tenant: "default", user: "bob", roles: ["staff"] };

let tmp: ReturnType<typeof tempDir>;
let store: SqliteStore;
let searches: number;
let retriever: Retriever;

beforeEach(async () => {
  tmp = tempDir();
  store = await createSqliteStore({ path: `${tmp.dir}/ferret.db` });
  await store.putSource({ name: "handbook", tenant: "default", kind: "documents", description: "h", acl: [] });
  await store.putSource({ name: "hr", tenant: "default", kind: "documents", description: "hr", acl: ["hr"] });
  await store.writeDocuments([
    makeDoc({ id: "leave.md", source: "handbook", title: "Leave", paragraphs: ["Parental leave is 20 weeks."] }),
    makeDoc({ id: "pay.md", source: "hr", title: "Salaries", paragraphs: ["Dana Smith salary is 91000 per year."] }),
  ]);
  const base = createRetriever({ store });
  searches = 0;
  retriever = {
    search(query, options) {
      searches++;
      return base.search(query, options);
    },
  };
});

afterEach(async () => {
  await store.close();
  tmp.remove();
});

async function context(principal: Principal): Promise<ToolContext> {
  const sources = await store.listSources(principal);
  return { principal, retriever, store, sources, signal: new AbortController().signal };
}

describe("createCachedExecutor", () => {
  it("serves a repeated sub-query from the cache, marked cached", async () => {
    const execute = createCachedExecutor({ cache: createSubQueryCache() });
    const ctx = await context(hrStaff);
    const toolset = createToolset({ sources: ctx.sources });
    const first = await execute(toolset, { tool: "search", args: { query: "Dana Smith salary" } }, ctx);
    const second = await execute(toolset, { tool: "search", args: { query: "dana  smith SALARY", k: 5 } }, ctx);
    expect(first.cached).toBeUndefined();
    expect(first.passages?.[0]?.id).toBe("pay.md::0");
    expect(second).toEqual({ ...first, cached: true });
    expect(searches).toBe(1);
  });

  it("gives a principal with fewer roles nothing another principal's entry holds", async () => {
    const cache = createSubQueryCache();
    const execute = createCachedExecutor({ cache });
    const rich = await context(hrStaff);
    await execute(createToolset({ sources: rich.sources }), { tool: "search", args: { query: "Dana salary" } }, rich);
    const poor = await context(staff);
    const result = await execute(
      createToolset({ sources: poor.sources }),
      { tool: "search", args: { query: "Dana salary" } },
      poor,
    );
    expect(result.cached).toBeUndefined();
    expect(result.passages?.map((p) => p.source) ?? []).not.toContain("hr");
    expect(searches).toBe(2);
  });

  it("never caches errors or denials, and caches no_results", async () => {
    const cache = createSubQueryCache();
    const execute = createCachedExecutor({ cache });
    const ctx = await context(staff);
    const wide = createToolset({ sources: ["handbook", "hr"] });
    const denied = await execute(wide, { tool: "search", args: { corpus: "hr", query: "salary" } }, ctx);
    expect(denied.status).toBe("denied");
    const bad = await execute(wide, { tool: "search", args: { query: "" } }, ctx);
    expect(bad.status).toBe("error");
    expect(cache.size).toBe(0);
    const none = await execute(wide, { tool: "search", args: { query: "zebra" } }, ctx);
    expect(none.status).toBe("no_results");
    expect((await execute(wide, { tool: "search", args: { query: "zebra" } }, ctx)).cached).toBe(true);
  });

  it("misses after the source is re-ingested and invalidated", async () => {
    const cache = createSubQueryCache();
    const execute = createCachedExecutor({ cache });
    const ctx = await context(hrStaff);
    const toolset = createToolset({ sources: ctx.sources });
    const call = { tool: "search", args: { corpus: "handbook", query: "parental leave" } };
    expect((await execute(toolset, call, ctx)).passages?.[0]?.text).toContain("20 weeks");
    await store.writeDocuments([
      makeDoc({ id: "leave.md", source: "handbook", title: "Leave", paragraphs: ["Parental leave is 26 weeks."] }),
    ]);
    expect(cache.invalidateSource("default", "hr")).toBe(0);
    expect(cache.invalidateSource("default", "handbook")).toBe(1);
    const fresh = await execute(toolset, call, ctx);
    expect(fresh.cached).toBeUndefined();
    expect(fresh.passages?.[0]?.text).toContain("26 weeks");
  });

  it("does not cache tools outside the allowed list", async () => {
    const cache = createSubQueryCache();
    const execute = createCachedExecutor({ cache, tools: ["search_by_source"] });
    const ctx = await context(hrStaff);
    const toolset = createToolset({ sources: ctx.sources });
    await execute(toolset, { tool: "search", args: { query: "leave" } }, ctx);
    await execute(toolset, { tool: "list_sources", args: {} }, ctx);
    expect(cache.size).toBe(0);
    await execute(toolset, { tool: "search_by_source", args: { docId: "leave.md", query: "leave" } }, ctx);
    expect(cache.size).toBe(1);
  });
});
