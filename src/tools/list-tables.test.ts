import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRetriever } from "../retrieval/search.js";
import type { Principal } from "../spec/principal.js";
import { createSqliteStore, type SqliteStore } from "../stores/sqlite/index.js";
import type { ToolContext } from "./define-tool.js";
import { listTablesTool, readableTables } from "./list-tables.js";

const SALES: Principal = { tenant: "acme", user: "sam", roles: ["sales"] };
const OWNER: Principal = { tenant: "acme", user: "local", roles: ["*"] };

let dir: string;
let store: SqliteStore;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ferret-list-tables-"));
  store = await createSqliteStore({ path: join(dir, "ferret.db") });
  const tenant = "acme";
  await store.putSource({ name: "orders", tenant, kind: "table", description: "Shop orders.", acl: ["sales"] });
  await store.putSource({ name: "payroll", tenant, kind: "table", description: "Salaries.", acl: ["hr"] });
  await store.putSource({ name: "handbook", tenant, kind: "documents", description: "Staff handbook.", acl: [] });
  await store.writeTable({
    tenant,
    source: "orders",
    file: "orders.csv",
    schema: {
      name: "orders",
      primaryKey: "order_id",
      columns: [
        { name: "order_id", type: "TEXT" },
        { name: "amount", type: "REAL" },
      ],
    },
    rows: [
      { order_id: "O-1", amount: 10 },
      { order_id: "O-2", amount: 12.5 },
      { order_id: "O-3", amount: null },
    ],
  });
  await store.writeTable({
    tenant,
    source: "payroll",
    file: "payroll.csv",
    schema: { name: "payroll", primaryKey: "employee", columns: [{ name: "employee", type: "TEXT" }] },
    rows: [{ employee: "E-1" }],
  });
});

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function context(principal: Principal, sources?: ToolContext["sources"]): Promise<ToolContext> {
  return {
    principal,
    store,
    retriever: createRetriever({ store }),
    sources: sources ?? (await store.listSources(principal)),
    signal: new AbortController().signal,
  };
}

describe("list_tables", () => {
  it("lists only the table sources the principal may read, with row counts and columns", async () => {
    const result = await listTablesTool.execute({}, await context(SALES));
    expect(result.status).toBe("ok");
    expect(result.rows).toEqual([
      {
        name: "orders",
        source: "orders",
        description: "Shop orders.",
        rows: 3,
        columns: "order_id TEXT, amount REAL",
        primaryKey: "order_id",
      },
    ]);
    expect(result.hint).toContain("_id");
    const owner = await listTablesTool.execute({}, await context(OWNER));
    expect(owner.rows?.map((r) => r.name)).toEqual(["orders", "payroll"]);
  });

  it("reports no_results to a principal without any table", async () => {
    const result = await listTablesTool.execute({}, await context({ tenant: "acme", user: "x", roles: [] }));
    expect(result).toEqual({
      status: "no_results",
      rows: [],
      hint: "no table source is readable by you; use search instead",
    });
  });

  it("asks the store for schemas the context's sources lack, never widening them", async () => {
    const bare = (await store.listSources(OWNER))
      .map(({ tables: _tables, ...s }) => s)
      .filter((s) => s.name !== "payroll");
    const tables = await readableTables(await context(OWNER, bare));
    expect(tables.map((t) => [t.name, t.columns.map((c) => c.name)])).toEqual([["orders", ["order_id", "amount"]]]);
  });
});
