import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSamePathFolders } from "../../test/fixtures/hostile/same-relative-path.js";
import { ingestPath } from "../ingest/ingest.js";
import { createRetriever } from "../retrieval/search.js";
import type { Principal } from "../spec/principal.js";
import { createSqliteStore, type SqliteStore } from "../stores/sqlite/index.js";
import type { ToolContext } from "./define-tool.js";
import { executeToolCall } from "./execute-tool-call.js";
import { sqlTools } from "./run-sql.js";
import { createToolset } from "./toolset.js";

const STAFF: Principal = { tenant: "acme", user: "s", roles: ["staff"] };
const HR: Principal = { tenant: "acme", user: "h", roles: ["staff", "hr"] };

let dir: string;
let store: SqliteStore;

/** Folders `a` (everyone) and `b` (hr) with the same README.md and data/orders.csv; `c` repeats a's row key. */
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ferret-sql-tables-"));
  const folders = await writeSamePathFolders(dir);
  const c = join(dir, "c");
  await mkdir(join(c, "data"), { recursive: true });
  await writeFile(join(c, "data", "orders.csv"), "order_id,pump\nA-1,c\n");
  await writeFile(join(c, "data", "parts.csv"), "part_id,name\nP-1,valve\n");
  store = await createSqliteStore({ path: join(dir, "ferret.db") });
  await ingestPath({ store, path: folders.a, tenant: "acme", source: "a" });
  await ingestPath({ store, path: folders.b, tenant: "acme", source: "b", acl: ["hr"] });
  await ingestPath({ store, path: c, tenant: "acme", source: "c" });
});

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function call(principal: Principal, tool: string, args: Record<string, unknown>) {
  const ctx: ToolContext = {
    principal,
    store,
    retriever: createRetriever({ store }),
    sources: await store.listSources(principal),
    signal: new AbortController().signal,
  };
  const toolset = createToolset({ sources: ctx.sources, tools: sqlTools });
  return executeToolCall(toolset, { tool, args }, ctx);
}

describe("SQL tools over folders holding CSV files", () => {
  it("list every readable table, with its source", async () => {
    const listed = await call(HR, "list_tables", {});
    expect(listed.rows?.map((r) => [r.name, r.source, r.rows])).toEqual([
      ["orders", "a", 1],
      ["orders_2", "b", 1],
      ["orders_3", "c", 1],
      ["parts", "c", 1],
    ]);
    expect((await call(STAFF, "list_tables", {})).rows?.map((r) => r.name)).toEqual(["orders", "orders_3", "parts"]);
    expect((await call(HR, "describe_table", { table: "parts" })).status).toBe("ok");
    const hidden = await call(STAFF, "describe_table", { table: "orders_2" });
    expect(hidden).toMatchObject({ status: "error", hint: expect.stringContaining("no such table: orders_2") });
  });

  it("return each row as a passage of its own source, even where two sources hold the same file", async () => {
    const fromB = await call(HR, "run_sql", { sql: "SELECT _id FROM orders_2" });
    expect(fromB.passages?.map((p) => [p.source, p.docId, p.text])).toEqual([
      ["b", "data/orders.csv#B-1", "order_id: B-1\npump: b"],
    ]);
    // a and c both hold data/orders.csv#A-1: the id alone cannot say which row it was, so both come back,
    // each from its own source, never one source's row under the other's name.
    const same = await call(STAFF, "run_sql", { sql: "SELECT _id FROM orders" });
    expect(same.passages?.map((p) => [p.source, p.text])).toEqual([
      ["a", "order_id: A-1\npump: a"],
      ["c", "order_id: A-1\npump: c"],
    ]);
    const unreadable = await call(STAFF, "run_sql", { sql: "SELECT 'data/orders.csv#B-1' AS _id" });
    expect(unreadable.passages).toEqual([]);
  });

  it("search inside the document of the source asked for", async () => {
    const inB = await call(HR, "search_by_source", { docId: "README.md", source: "b", query: "pump serviced" });
    expect(inB.passages?.map((p) => p.source)).toEqual(["b"]);
    const either = await call(HR, "search_by_source", { docId: "README.md", query: "pump serviced" });
    expect(either.passages?.map((p) => p.source)).toEqual(["a"]);
    const denied = await call(STAFF, "search_by_source", { docId: "README.md", source: "b", query: "pump" });
    expect(denied.status).toBe("denied");
  });
});
