import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ingestPath } from "../ingest/ingest.js";
import { createRetriever } from "../retrieval/search.js";
import type { Principal } from "../spec/principal.js";
import { alive } from "../stores/sqlite/__fixtures__/process-alive.js";
import { createSqliteStore, type SqliteStore } from "../stores/sqlite/index.js";
import type { ToolContext } from "./define-tool.js";
import { executeToolCall } from "./execute-tool-call.js";
import { runSqlTool, SQL_TIMEOUT_MS, sqlTimeoutMs, sqlTools } from "./run-sql.js";
import { createToolset } from "./toolset.js";

const ORDERS = `order_id,placed_at,shipped_at,region,status,amount
${Array.from({ length: 12 }, (_, i) => {
  const n = String(i + 1).padStart(2, "0");
  return `O-${n},2025-0${(i % 6) + 1}-1${i % 10},${i % 3 === 0 ? "" : `2025-0${(i % 6) + 1}-2${i % 10}`},${["north", "south", "east"][i % 3]},${i % 4 === 0 ? "pending" : "shipped"},${(i + 1) * 10}`;
}).join("\n")}
`;
const PAYROLL = "employee,salary\nE-1,100\nE-2,120\n";

const SALES: Principal = { tenant: "acme", user: "sam", roles: ["sales"] };
const HR: Principal = { tenant: "acme", user: "hana", roles: ["hr"] };

let dir: string;
let store: SqliteStore;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ferret-run-sql-"));
  const set = join(dir, "set");
  await mkdir(set);
  await writeFile(join(set, "orders.csv"), ORDERS);
  await writeFile(join(set, "payroll.csv"), PAYROLL);
  await writeFile(
    join(set, "sources.json"),
    JSON.stringify([
      {
        name: "orders",
        kind: "table",
        path: "orders.csv",
        acl: ["sales"],
        description: "Shop orders, one row per order.",
      },
      { name: "payroll", kind: "table", path: "payroll.csv", acl: ["hr"], description: "Salaries." },
    ]),
  );
  // A memory cap far above what 2 s of sorting can reach, so the runaways end by the time limit on any machine.
  store = await createSqliteStore({ path: join(dir, "ferret.db"), sql: { memoryBytes: 4 * 1024 ** 3 } });
  await ingestPath({ store, path: set, tenant: "acme" });
});

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function context(principal: Principal): Promise<ToolContext> {
  return {
    principal,
    store,
    retriever: createRetriever({ store }),
    sources: await store.listSources(principal),
    signal: new AbortController().signal,
  };
}

async function runSql(principal: Principal, args: Record<string, unknown>) {
  const ctx = await context(principal);
  const toolset = createToolset({ sources: ctx.sources, tools: sqlTools });
  return executeToolCall(toolset, { tool: "run_sql", args }, ctx);
}

describe("run_sql", () => {
  it("runs an aggregate and returns its rows", async () => {
    const result = await runSql(SALES, {
      sql: "SELECT region, COUNT(*) AS n FROM orders GROUP BY region ORDER BY region",
    });
    expect(result.status).toBe("ok");
    expect(result.rows).toEqual([
      { region: "east", n: 4 },
      { region: "north", n: 4 },
      { region: "south", n: 4 },
    ]);
    expect(result.passages).toEqual([]);
  });

  it("returns rows with their _id and the row documents as citable passages", async () => {
    const result = await runSql(SALES, {
      sql: "SELECT _id, order_id, status FROM orders WHERE status = 'pending' ORDER BY order_id;",
    });
    expect(result.rows?.map((r) => r._id)).toEqual(["orders.csv#O-01", "orders.csv#O-05", "orders.csv#O-09"]);
    expect(result.passages?.map((p) => p.id)).toEqual([
      "orders.csv#O-01::0",
      "orders.csv#O-05::0",
      "orders.csv#O-09::0",
    ]);
    const first = result.passages?.[0];
    expect(first).toMatchObject({ docId: "orders.csv#O-01", source: "orders", score: 1 });
    expect(first?.text).toContain("status: pending");
  });

  it("gives passages for at most 10 rows and says so", async () => {
    const result = await runSql(SALES, { sql: "SELECT _id FROM orders ORDER BY _id" });
    expect(result.rows).toHaveLength(12);
    expect(result.passages).toHaveLength(10);
    expect(result.hint).toContain("passages for the first 10 of 12 rows");
  });

  it("stops at 200 rows by default, and at maxRows, with a truncation note", async () => {
    const many = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 300) SELECT x FROM n";
    const result = await runSql(SALES, { sql: many });
    expect(result.rows).toHaveLength(200);
    expect(result.hint).toContain("truncated: showing the first 200 rows");
    const five = await runSql(SALES, { sql: "SELECT order_id FROM orders", maxRows: 5 });
    expect(five.rows).toHaveLength(5);
    expect(five.hint).toContain("first 5 rows");
  });

  it("treats a table the principal cannot read as missing", async () => {
    const hidden = await runSql(SALES, { sql: "SELECT * FROM payroll" });
    expect(hidden).toEqual({ status: "error", hint: "no such table: payroll; tables you can query: orders" });
    const none = await runSql({ tenant: "acme", user: "x", roles: [] }, { sql: "SELECT COUNT(*) FROM orders" });
    expect(none).toEqual({ status: "error", hint: "no such table: orders; tables you can query: (none)" });
    const hr = await runSql(HR, { sql: "SELECT SUM(salary) AS total FROM payroll" });
    expect(hr.rows).toEqual([{ total: 220 }]);
  });

  it("refuses every mutation attempt as read-only and leaves the table unchanged", async () => {
    const attempts = [
      "DROP TABLE orders",
      "UPDATE orders SET amount = 0",
      "DELETE FROM orders",
      "INSERT INTO orders (order_id) VALUES ('O-99')",
      "SELECT 1; DROP TABLE orders",
      "SELECT 1 /* harmless */; -- still harmless\n DELETE FROM orders",
      "WITH x AS (SELECT 1) DELETE FROM orders",
      "ATTACH DATABASE 'evil.db' AS evil",
      "PRAGMA query_only = 0",
    ];
    for (const sql of attempts) {
      const result = await runSql(SALES, { sql });
      expect(result.status, sql).toBe("error");
      expect(result.hint, sql).toMatch(/^read-only: /);
      expect(result.rows, sql).toBeUndefined();
    }
    const after = await runSql(SALES, { sql: "SELECT COUNT(*) AS n, SUM(amount) AS total FROM orders" });
    expect(after.rows).toEqual([{ n: 12, total: 780 }]);
  });

  it("explains a query that cannot run, with the tables and columns to use", async () => {
    const result = await runSql(SALES, { sql: "SELECT colour FROM orders" });
    expect(result.status).toBe("error");
    expect(result.hint).toContain("no such column: colour");
    expect(result.hint).toContain("orders(order_id, placed_at, shipped_at, region, status, amount, _id)");
  });

  it("reports an empty result as no_results with a hint", async () => {
    const result = await runSql(SALES, { sql: "SELECT _id FROM orders WHERE region = 'North'" });
    expect(result).toMatchObject({ status: "no_results", rows: [] });
    expect(result.hint).toContain("describe_table");
  });

  it("is registered with the other SQL tools and validates its arguments", async () => {
    const toolset = createToolset({ sources: ["orders"], tools: sqlTools });
    expect(toolset.names()).toEqual(expect.arrayContaining(["run_sql", "list_tables", "describe_table"]));
    expect(runSqlTool.parallelSafe).toBe(true);
    const bad = await executeToolCall(toolset, { tool: "run_sql", args: { sql: "  " } }, await context(SALES));
    expect(bad).toMatchObject({ status: "error" });
    expect(bad.hint).toContain("sql must not be empty");
  });
});

/** Joins of 8 and 10 copies of the 12 orders: hundreds of millions of rows and more. */
const RUNAWAYS: [string, string][] = [
  ["a recursive CTE", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"],
  [
    "a cross join",
    "SELECT count(*) FROM orders a, orders b, orders c, orders d, orders e, orders f, orders g, orders h, orders i, orders j",
  ],
  [
    "an ORDER BY over a huge join",
    "SELECT a.order_id || b.order_id || c.order_id || d.order_id || e.order_id AS k " +
      "FROM orders a, orders b, orders c, orders d, orders e, orders f, orders g, orders h ORDER BY k",
  ],
];

describe("run_sql that runs too long", () => {
  for (const [shape, runaway] of RUNAWAYS) {
    it(`returns timeout for ${shape} while a search in the same process answers`, async () => {
      const ctx = await context(SALES);
      const toolset = createToolset({ sources: ctx.sources, tools: sqlTools });
      const order: string[] = [];
      // A 2 s tool limit gives the query 1.5 s.
      const sql = executeToolCall(toolset, { tool: "run_sql", args: { sql: runaway } }, ctx, { timeoutMs: 2000 }).then(
        (result) => {
          order.push("run_sql");
          return result;
        },
      );
      const search = await executeToolCall(toolset, { tool: "search", args: { query: "pending orders north" } }, ctx);
      order.push("search");
      expect(search.passages?.length).toBeGreaterThan(0);
      const result = await sql;
      expect(order).toEqual(["search", "run_sql"]);
      expect(result).toEqual({
        status: "timeout",
        hint:
          "the query ran past 1.5 s and was stopped; add a WHERE on a selective column or a LIMIT, aggregate " +
          "(COUNT, GROUP BY) instead of listing rows, and avoid cross joins and recursive CTEs",
      });
      const next = await runSql(SALES, { sql: "SELECT COUNT(*) AS n FROM orders" });
      expect(next.rows).toEqual([{ n: 12 }]);
    });
  }

  it("keeps the query's limit below the executor's per-tool limit", () => {
    expect(sqlTimeoutMs(undefined)).toBe(SQL_TIMEOUT_MS);
    expect(sqlTimeoutMs(10_000)).toBe(SQL_TIMEOUT_MS);
    expect(sqlTimeoutMs(4000)).toBe(3000);
  });

  it("kills the query's runner when the run is aborted", async () => {
    const parent = new AbortController();
    const ctx = { ...(await context(SALES)), signal: parent.signal };
    const toolset = createToolset({ sources: ctx.sources, tools: sqlTools });
    const call = executeToolCall(toolset, { tool: "run_sql", args: { sql: RUNAWAYS[0]![1] } }, ctx);
    await executeToolCall(toolset, { tool: "search", args: { query: "pending" } }, ctx);
    const during = store.sqlRunnerPids();
    parent.abort(new Error("user pressed stop"));
    expect(await call).toEqual({ status: "error", hint: "run_sql was stopped: the run was aborted" });
    const after = new Set(store.sqlRunnerPids());
    const killed = during.filter((pid) => !after.has(pid));
    expect(killed).toHaveLength(1);
    await vi.waitFor(() => expect(alive(killed[0]!)).toBe(false), { timeout: 10_000, interval: 50 });
    expect((await runSql(SALES, { sql: "SELECT COUNT(*) AS n FROM orders" })).rows).toEqual([{ n: 12 }]);
  });
});
