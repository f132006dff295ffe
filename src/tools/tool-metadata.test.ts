import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createWorld } from "../agent/testing/world.js";
import { createSubQueryCache } from "../retrieval/cache.js";
import { createCachedExecutor } from "./cached-executor.js";
import {
  defineTool,
  describeTool,
  describeToolCall,
  readsOf,
  schemaPerArguments,
  type ToolContext,
} from "./define-tool.js";
import { describeTableTool } from "./describe-table.js";
import { findPathTool } from "./find-path.js";
import { listTablesTool } from "./list-tables.js";
import { runSqlTool } from "./run-sql.js";
import { searchEntityTool } from "./search-entity.js";
import { createToolset } from "./toolset.js";
import { traverseGraphTool } from "./traverse-graph.js";

const toolset = createToolset({
  sources: ["api_docs"],
  tools: [searchEntityTool, traverseGraphTool, findPathTool, runSqlTool, describeTableTool, listTablesTool],
});

describe("tool metadata, declared on each tool", () => {
  it("says what each built-in tool reads", () => {
    const reads = Object.fromEntries(toolset.names().map((n) => [n, readsOf(toolset.get(n))]));
    expect(reads).toEqual({
      search: "passages",
      search_by_source: "passages",
      lookup: "passages",
      list_sources: "none",
      search_entity: "passages",
      traverse_graph: "passages",
      find_path: "passages",
      run_sql: "tables",
      describe_table: "tables",
      list_tables: "tables",
    });
  });

  it("marks the read-only passage tools cacheable, and nothing that runs SQL", () => {
    const cacheable = toolset.names().filter((n) => toolset.get(n)?.cacheable === true);
    expect(cacheable.sort()).toEqual([
      "find_path",
      "lookup",
      "search",
      "search_by_source",
      "search_entity",
      "traverse_graph",
    ]);
    expect(describeTool(toolset.get("run_sql")!)).toMatchObject({ reads: "tables", cacheable: false });
  });

  it("describes a call in the tool's own words, and an unknown or invalid one by name and arguments", () => {
    expect(describeToolCall(toolset.get("search"), "search", { corpus: "api_docs", query: "refund" })).toBe(
      "api_docs for 'refund'",
    );
    expect(describeToolCall(toolset.get("search"), "search", { query: "refund" })).toBe("all sources for 'refund'");
    expect(describeToolCall(undefined, "web", { q: 1 })).toBe('web {"q":1}');
  });
});

describe("the cached executor reads `cacheable` from the tool", () => {
  it("caches a tool that declares it, and runs one that does not every time", async () => {
    const world = await createWorld();
    let runs = 0;
    const make = (name: string, cacheable: boolean) =>
      defineTool({
        name,
        description: name,
        inputSchema: z.object({ q: z.string() }),
        parallelSafe: true,
        cacheable,
        async execute() {
          runs++;
          return { status: "ok", passages: [] };
        },
      });
    const tools = createToolset({ sources: [], tools: [make("kept", true), make("fresh", false)] });
    const execute = createCachedExecutor({ cache: createSubQueryCache() });
    const ctx: ToolContext = { ...world, signal: new AbortController().signal };
    for (let i = 0; i < 2; i++) await execute(tools, { tool: "kept", args: { q: "x" } }, ctx);
    expect(runs).toBe(1);
    for (let i = 0; i < 2; i++) await execute(tools, { tool: "fresh", args: { q: "x" } }, ctx);
    expect(runs).toBe(3);
  });
});

describe("schemas built per run", () => {
  it("are built once per distinct arguments, so their JSON Schema is converted once", () => {
    let builds = 0;
    const schemaFor = schemaPerArguments((names: readonly string[]) => {
      builds++;
      return z.object({ corpus: z.enum(names as [string, ...string[]]) });
    });
    const a = schemaFor(["wiki", "tickets"]);
    expect(schemaFor(["wiki", "tickets"])).toBe(a);
    expect(builds).toBe(1);
    const b = schemaFor(["wiki"]);
    expect(b).not.toBe(a);
    expect(builds).toBe(2);
    expect(b.safeParse({ corpus: "tickets" }).success).toBe(false);
    expect(a.safeParse({ corpus: "tickets" }).success).toBe(true);
  });

  it("give the toolsets of two runs over the same sources one search schema", () => {
    const one = createToolset({ sources: ["wiki"] }).get("search");
    const two = createToolset({ sources: ["wiki"] }).get("search");
    expect(one?.inputSchema).toBeDefined();
    expect(two?.inputSchema).toBe(one?.inputSchema);
  });
});
