import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createWorld, PRINCIPAL } from "../agent/testing/world.js";
import { UpstreamError } from "../spec/errors.js";
import type { ToolContext } from "./define-tool.js";
import { defineTool } from "./define-tool.js";
import { executeToolCall } from "./execute-tool-call.js";
import { createFakeRetriever } from "./testing/fake-retriever.js";
import { createToolset } from "./toolset.js";

async function setup(overrides: Partial<ToolContext> = {}) {
  const world = await createWorld();
  const ctx: ToolContext = {
    principal: world.principal,
    retriever: world.retriever,
    store: world.store,
    sources: world.sources,
    signal: new AbortController().signal,
    ...overrides,
  };
  return { world, ctx, toolset: createToolset({ sources: world.sources }) };
}

describe("search", () => {
  it("finds passages in one corpus and reports ok", async () => {
    const { ctx, toolset } = await setup();
    const result = await executeToolCall(
      toolset,
      { tool: "search", args: { corpus: "api_docs", query: "refunds payment gateway" } },
      ctx,
    );
    expect(result.status).toBe("ok");
    expect(result.passages?.map((p) => p.id)).toEqual(["refunds.md::0"]);
  });

  it("searches only readable sources when no corpus is given, with the principal from the context", async () => {
    const { ctx, toolset, world } = await setup();
    const result = await executeToolCall(toolset, { tool: "search", args: { query: "Dana Smith salary" } }, ctx);
    expect(result.passages?.map((p) => p.source)).not.toContain("finance");
    expect(world.retriever.calls[0]?.options.sources).toEqual(["api_docs", "handbook"]);
    expect(world.retriever.calls[0]?.options.principal).toBe(PRINCIPAL);
  });

  it("cannot widen access: an unreadable corpus is rejected, extra principal arguments are ignored", async () => {
    const { ctx, toolset, world } = await setup();
    const bad = await executeToolCall(toolset, { tool: "search", args: { corpus: "finance", query: "salary" } }, ctx);
    expect(bad.status).toBe("error");
    expect(bad.hint).toContain('expected one of "api_docs"|"handbook"');
    const sneaky = await executeToolCall(
      toolset,
      { tool: "search", args: { query: "salary", principal: { tenant: "default", user: "x", roles: ["*"] } } },
      ctx,
    );
    expect(sneaky.passages ?? []).toEqual([]);
    expect(world.retriever.calls.at(-1)?.options.principal).toBe(PRINCIPAL);
  });

  it("refuses a model-written query over the cap with a readable error, without searching", async () => {
    const { ctx, world } = await setup();
    const toolset = createToolset({ sources: world.sources, maxQueryChars: 40 });
    const long = await executeToolCall(toolset, { tool: "search", args: { query: "refund ".repeat(20) } }, ctx);
    expect(long.status).toBe("error");
    expect(long.hint).toContain("query must be at most 40 characters");
    const huge = await executeToolCall(
      createToolset({ sources: world.sources }),
      { tool: "search_by_source", args: { docId: "refunds.md", query: "x".repeat(1_000_001) } },
      ctx,
    );
    expect(huge.status).toBe("error");
    expect(huge.hint).toContain("query must be at most 1000 characters");
    expect(world.retriever.calls).toHaveLength(0);
    const fits = await executeToolCall(toolset, { tool: "search", args: { query: "refunds payment gateway" } }, ctx);
    expect(fits.status).toBe("ok");
  });

  it("is denied when the toolset knows a corpus the principal may not read", async () => {
    const { ctx, world } = await setup();
    const wide = createToolset({ sources: ["api_docs", "handbook", "finance"] });
    const result = await executeToolCall(wide, { tool: "search", args: { corpus: "finance", query: "salary" } }, ctx);
    expect(result.status).toBe("denied");
    expect(world.retriever.calls).toHaveLength(0);
  });

  it("reports no_results with a hint naming other corpora", async () => {
    const { ctx, toolset } = await setup();
    const result = await executeToolCall(
      toolset,
      { tool: "search", args: { corpus: "api_docs", query: "parking garage" } },
      ctx,
    );
    expect(result.status).toBe("no_results");
    expect(result.hint).toContain("another corpus: handbook");
  });

  it("reports low_confidence below the threshold but keeps the passages", async () => {
    const { ctx, toolset } = await setup({ lowConfidence: 0.9 });
    const result = await executeToolCall(
      toolset,
      { tool: "search", args: { query: "refunds parking garage zebra" } },
      ctx,
    );
    expect(result.status).toBe("low_confidence");
    expect(result.passages?.length).toBeGreaterThan(0);
  });

  it("renders bad arguments readably", async () => {
    const { ctx, toolset } = await setup();
    const result = await executeToolCall(
      toolset,
      { tool: "search", args: { query: "", k: 50, since: "yesterday" } },
      ctx,
    );
    expect(result.status).toBe("error");
    expect(result.hint).toContain("query: query must not be empty");
    expect(result.hint).toContain("k: Too big");
    expect(result.hint).toContain("since: since must be an ISO date");
  });

  it("describes its corpus enum and k bounds in JSON Schema", () => {
    const toolset = createToolset({ sources: ["a", "b"] });
    const search = toolset.descriptors().find((d) => d.name === "search");
    const props = search?.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.corpus?.enum).toEqual(["a", "b"]);
    expect(props.k).toMatchObject({ minimum: 1, maximum: 20, default: 5 });
    expect(search?.inputSchema.required).toEqual(["query"]);
  });
});

describe("executeToolCall", () => {
  it("names the available tools for an unknown tool", async () => {
    const { ctx, toolset } = await setup();
    const result = await executeToolCall(toolset, { tool: "web_search", args: {} }, ctx);
    expect(result).toMatchObject({ status: "error" });
    expect(result.hint).toContain("available tools: search, search_by_source, lookup, list_sources");
  });

  it("times out a hanging tool", async () => {
    const retriever = createFakeRetriever({ search: () => new Promise(() => {}) });
    const { ctx, toolset } = await setup({ retriever });
    const result = await executeToolCall(toolset, { tool: "search", args: { query: "x" } }, ctx, { timeoutMs: 5 });
    expect(result.status).toBe("timeout");
    expect(result.hint).toContain("5 ms");
  });

  it("maps a 429 to rate_limited with retryAfterMs", async () => {
    const retriever = createFakeRetriever({
      search: () => Promise.reject(new UpstreamError("slow down", { status: 429, retryAfterMs: 1500 })),
    });
    const { ctx, toolset } = await setup({ retriever });
    const result = await executeToolCall(toolset, { tool: "search", args: { query: "x" } }, ctx);
    expect(result).toMatchObject({ status: "rate_limited", retryAfterMs: 1500 });
  });

  it("turns an exception into an actionable error, not an empty result", async () => {
    const retriever = createFakeRetriever({ search: () => Promise.reject(new Error("disk on fire")) });
    const { ctx, toolset } = await setup({ retriever });
    const result = await executeToolCall(toolset, { tool: "search", args: { query: "x" } }, ctx);
    expect(result.status).toBe("error");
    expect(result.hint).toContain("disk on fire");
    expect(result.passages).toBeUndefined();
  });

  it("does not run when the run is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const { ctx, toolset, world } = await setup({ signal: controller.signal });
    const result = await executeToolCall(toolset, { tool: "search", args: { query: "refunds" } }, ctx);
    expect(result.status).toBe("error");
    expect(world.retriever.calls).toHaveLength(0);
  });
});

describe("search_by_source and list_sources", () => {
  it("searches inside a readable document", async () => {
    const { ctx, toolset, world } = await setup();
    const result = await executeToolCall(
      toolset,
      { tool: "search_by_source", args: { docId: "refunds.md", query: "gateway" } },
      ctx,
    );
    expect(result.status).toBe("ok");
    expect(world.retriever.calls[0]?.options).toMatchObject({ docId: "refunds.md", sources: ["api_docs"] });
  });

  it("denies a document of an unreadable source without saying whether it exists", async () => {
    const { ctx, toolset } = await setup();
    const hidden = await executeToolCall(
      toolset,
      { tool: "search_by_source", args: { docId: "salaries.md", query: "salary" } },
      ctx,
    );
    const missing = await executeToolCall(
      toolset,
      { tool: "search_by_source", args: { docId: "nope.md", query: "salary" } },
      ctx,
    );
    expect(hidden.status).toBe("denied");
    expect(missing.status).toBe("denied");
  });

  it("lists only readable sources", async () => {
    const { ctx, toolset } = await setup();
    const result = await executeToolCall(toolset, { tool: "list_sources", args: {} }, ctx);
    expect(result.rows?.map((r) => r.name)).toEqual(["api_docs", "handbook"]);
  });
});

describe("toolset", () => {
  it("is open to registration and rejects a duplicate name", async () => {
    const { ctx } = await setup();
    const echo = defineTool({
      name: "echo",
      description: "Echoes",
      inputSchema: z.object({ text: z.string() }),
      parallelSafe: false,
      execute: async (args) => ({ status: "ok", rows: [{ text: args.text.toUpperCase() }] }),
    });
    const toolset = createToolset({ sources: ["a"], tools: [echo] });
    expect(toolset.names()).toContain("echo");
    expect(toolset.descriptors().find((d) => d.name === "echo")?.parallelSafe).toBe(false);
    expect(() => toolset.register(echo)).toThrow(/already registered/);
    const result = await executeToolCall(toolset, { tool: "echo", args: { text: "hi" } }, ctx);
    expect(result.rows).toEqual([{ text: "HI" }]);
  });
});
