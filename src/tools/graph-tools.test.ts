import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Principal } from "../spec/principal.js";
import type { StoreV1 } from "../spec/store.js";
import type { ToolResult } from "../spec/tool-result.js";
import { createSqliteStore } from "../stores/sqlite/index.js";
import { alice, harriet } from "../testing/fixtures.js";
import { seedGraph } from "../testing/graph-suite.js";
import type { ToolContext } from "./define-tool.js";
import { executeToolCall } from "./execute-tool-call.js";
import { graphTools } from "./graph-tools.js";
import { createFakeRetriever } from "./testing/fake-retriever.js";
import { createMemoryStore } from "./testing/memory-store.js";
import { createToolset } from "./toolset.js";

let dir: string;
let store: StoreV1;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "ferret-graph-tools-"));
  store = await createSqliteStore({ path: join(dir, "ferret.db") });
  await seedGraph(store);
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(
  tool: string,
  args: Record<string, unknown>,
  principal: Principal,
  on = store,
): Promise<ToolResult> {
  const sources = await on.listSources(principal);
  const ctx: ToolContext = {
    principal,
    retriever: createFakeRetriever({}),
    store: on,
    sources,
    signal: new AbortController().signal,
  };
  return executeToolCall(createToolset({ sources, tools: graphTools }), { tool, args }, ctx);
}

/** Everything a result carries, as text: nothing of an unreadable document may appear anywhere in it. */
const dump = (result: ToolResult) => JSON.stringify(result).toLowerCase();

describe("search_entity", () => {
  it("returns the entity as a row and the passages that mention it", async () => {
    const result = await call("search_entity", { value: "lantern-relay", type: "code" }, alice);
    expect(result.status).toBe("ok");
    expect(result.rows?.[0]).toMatchObject({ key: "lantern-relay", type: "code", documents: 2 });
    expect(result.passages?.[0]?.id).toBe("services/lantern-relay.md::0");
  });

  it("finds nothing of an hr-only document for a principal without hr, and says so with a hint", async () => {
    const denied = await call("search_entity", { value: "Dana Smith" }, alice);
    expect(denied).toMatchObject({ status: "no_results", passages: [], rows: [] });
    expect(denied.hint).toContain("Dana Smith");
    const allowed = await call("search_entity", { value: "Dana Smith" }, harriet);
    expect(allowed.status).toBe("ok");
    expect(allowed.passages?.map((p) => p.docId).sort()).toEqual(["handbook/severance.md", "salaries/odile.md"]);
  });

  it("rejects a bad type with a readable error", async () => {
    const result = await call("search_entity", { value: "x", type: "planet" }, alice);
    expect(result.status).toBe("error");
    expect(result.hint).toContain("bad arguments for search_entity");
  });
});

describe("traverse_graph", () => {
  it("returns edges as rows with their evidence, and walks deeper on request", async () => {
    const one = await call("traverse_graph", { entity: "/v1/lanterns" }, alice);
    expect(one.status).toBe("ok");
    expect(one.rows).toContainEqual(
      expect.objectContaining({ from: "/v1/lanterns", to: "lantern-relay", kind: "co-occurs", depth: 1 }),
    );
    expect(one.passages?.map((p) => p.id)).toContain("api/lanterns.md::0");
    const three = await call("traverse_graph", { entity: "/v1/lanterns", depth: 3 }, alice);
    expect(three.rows?.some((r) => r.to === "odile brandt" && r.depth === 3)).toBe(true);
  });

  it("shows no edge or entity of an hr-only document to a principal without hr", async () => {
    const staff = await call("traverse_graph", { entity: "Odile Brandt", depth: 3 }, alice);
    expect(staff.status).toBe("ok");
    for (const secret of ["dana smith", "nightjar", "salaries/", "severance", "band l7"]) {
      expect(dump(staff)).not.toContain(secret);
    }
    const hr = await call("traverse_graph", { entity: "Odile Brandt", depth: 1 }, harriet);
    expect(hr.rows?.map((r) => r.to)).toContain("dana smith");
    expect((await call("traverse_graph", { entity: "Project Nightjar" }, alice)).status).toBe("no_results");
  });

  it("bounds depth to 1..3", async () => {
    const result = await call("traverse_graph", { entity: "/v1/lanterns", depth: 4 }, alice);
    expect(result.status).toBe("error");
  });
});

describe("find_path", () => {
  it("links an endpoint to a service to a team to a person across documents, with a passage per step", async () => {
    const result = await call("find_path", { from: "/v1/lanterns", to: "odile brandt" }, alice);
    expect(result.status).toBe("ok");
    expect(result.rows?.map((r) => [r.step, r.from, r.to])).toEqual([
      [1, "/v1/lanterns", "lantern-relay"],
      [2, "lantern-relay", "harbor crew"],
      [3, "harbor crew", "odile brandt"],
    ]);
    const docs = new Set(result.passages?.map((p) => p.docId));
    expect(docs).toEqual(new Set(["api/lanterns.md", "services/lantern-relay.md", "teams/harbor-crew.md"]));
  });

  it("finds no path through an hr-only document without hr, and one with it", async () => {
    const staff = await call("find_path", { from: "/v1/lanterns", to: "Project Nightjar" }, alice);
    expect(staff.status).toBe("no_results");
    expect(dump({ ...staff, hint: "" })).not.toContain("nightjar");
    const hr = await call("find_path", { from: "/v1/lanterns", to: "Project Nightjar" }, harriet);
    expect(hr.status).toBe("ok");
    expect(hr.rows?.at(-1)?.to).toBe("project nightjar");
  });

  it("honours maxDepth", async () => {
    const result = await call("find_path", { from: "/v1/lanterns", to: "Odile Brandt", maxDepth: 2 }, alice);
    expect(result.status).toBe("no_results");
    expect(result.hint).toContain("within 2 hops");
  });
});

describe("without a graph", () => {
  it("each tool says the graph is unavailable instead of returning nothing", async () => {
    const plain = createMemoryStore();
    for (const [tool, args] of [
      ["search_entity", { value: "x" }],
      ["traverse_graph", { entity: "x" }],
      ["find_path", { from: "x", to: "y" }],
    ] as const) {
      const result = await call(tool, args, alice, plain);
      expect(result.status).toBe("error");
      expect(result.hint).toContain("no entity graph");
    }
  });
});
