import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestPath } from "../ingest/ingest.js";
import { answerFromRows, planSql } from "../models/offline/sql/index.js";
import { createRetriever } from "../retrieval/search.js";
import type { Principal } from "../spec/principal.js";
import { createSqliteStore, type SqliteStore } from "../stores/sqlite/index.js";
import type { ToolContext } from "./define-tool.js";
import { describeTableTool } from "./describe-table.js";
import { readableTables } from "./list-tables.js";
import { runSqlTool } from "./run-sql.js";

// 30 made-up support requests: 3 teams, 2 priorities, created in 2025, some closed.
const REQUESTS = `request_id,created_at,closed_at,team,priority,summary,hours
${Array.from({ length: 30 }, (_, i) => {
  const day = String((i % 28) + 1).padStart(2, "0");
  const month = String((i % 3) + 4).padStart(2, "0");
  const closed = i % 5 === 0 ? "" : `2025-${month}-${String(Math.min(28, (i % 28) + 1 + (i % 4))).padStart(2, "0")}`;
  return `R-${100 + i},2025-${month}-${day},${closed},${["billing", "access", "billing", "hardware"][i % 4]},${i % 6 === 0 ? "urgent" : "normal"},Request number ${i},${(i % 7) + 0.5}`;
}).join("\n")}
`;

const STAFF: Principal = { tenant: "acme", user: "ana", roles: ["staff"] };

let dir: string;
let store: SqliteStore;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ferret-describe-"));
  const set = join(dir, "set");
  await mkdir(set);
  await writeFile(join(set, "requests.csv"), REQUESTS);
  await writeFile(
    join(set, "sources.json"),
    JSON.stringify([
      {
        name: "requests",
        kind: "table",
        path: "requests.csv",
        acl: ["staff"],
        description: "Internal support requests for 2025, one row per request.",
      },
    ]),
  );
  store = await createSqliteStore({ path: join(dir, "ferret.db") });
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

describe("describe_table", () => {
  it("gives types, values of few-valued columns, and ranges of dates and numbers", async () => {
    const result = await describeTableTool.execute({ table: "requests" }, await context(STAFF));
    expect(result.status).toBe("ok");
    const byName = new Map(result.rows?.map((r) => [r.column, r]));
    expect(byName.get("request_id")).toMatchObject({ type: "TEXT", kind: "text", distinct: 30, key: true, nulls: 0 });
    expect(byName.get("request_id")?.values).toBeUndefined();
    expect(byName.get("team")).toMatchObject({ kind: "text", distinct: 3, values: ["billing", "access", "hardware"] });
    expect(byName.get("priority")?.values).toEqual(["normal", "urgent"]);
    expect(byName.get("created_at")).toMatchObject({ kind: "date", min: "2025-04-01", max: "2025-06-27" });
    expect(byName.get("closed_at")).toMatchObject({ kind: "date", nulls: 6 });
    expect(byName.get("hours")).toMatchObject({ type: "REAL", kind: "number", min: 0.5, max: 6.5 });
    expect(byName.get("summary")?.values).toBeUndefined();
    expect(result.hint).toContain("requests.csv#R-");
  });

  it("treats an unknown or unreadable table as missing", async () => {
    const other = await describeTableTool.execute({ table: "payroll" }, await context(STAFF));
    expect(other).toEqual({ status: "error", hint: "no such table: payroll; tables you can query: requests" });
    const outsider = await describeTableTool.execute({ table: "requests" }, await context({ ...STAFF, roles: ["x"] }));
    expect(outsider).toEqual({ status: "error", hint: "no such table: requests; tables you can query: (none)" });
  });

  it("feeds the offline text-to-SQL planner, whose SQL run_sql answers with citable rows", async () => {
    const ctx = await context(STAFF);
    const describe = (await describeTableTool.execute({ table: "requests" }, ctx)).rows ?? [];
    const [table] = await readableTables(ctx);
    const plan = planSql({
      question: "How many urgent billing requests were created between 2025-04-10 and 2025-04-20?",
      dialect: ctx.store.sqlDialect,
      table: { ...table!.schema, description: table!.description },
      describe,
    });
    expect(plan?.kind).toBe("count");
    const counted = await runSqlTool.execute({ sql: plan!.sql, maxRows: 200 }, ctx);
    const listed = await runSqlTool.execute({ sql: plan!.listSql, maxRows: 200 }, ctx);
    expect(listed.rows?.map((r) => r.request_id)).toEqual(["R-112", "R-118"]);
    expect(listed.passages?.map((p) => p.docId)).toEqual(["requests.csv#R-112", "requests.csv#R-118"]);
    expect(
      answerFromRows({ plan: plan!, rows: counted.rows ?? [], listRows: listed.rows, primaryKey: "request_id" }),
    ).toBe(
      "2 requests match (team = 'billing'; priority = 'urgent'; created_at between 2025-04-10 and 2025-04-20) [R-112, R-118].",
    );
  });

  it("calls a text column a date only when every value starts YYYY-MM-DD", async () => {
    const clerk: Principal = { tenant: "acme", user: "cy", roles: ["dates"] };
    await store.putSource({ name: "shapes", tenant: "acme", kind: "table", description: "Shapes", acl: ["dates"] });
    const shapes = ["iso", "stamped", "slashed", "mixed", "month13", "short"];
    await store.writeTable({
      tenant: "acme",
      source: "shapes",
      file: "shapes.csv",
      schema: {
        name: "shapes",
        primaryKey: "id",
        columns: [{ name: "id", type: "TEXT" }, ...shapes.map((name) => ({ name, type: "TEXT" as const }))],
      },
      rows: [
        ["a", "2025-01-05", "2025-01-05T10:00:00Z", "2025/01/05", "2025-01-05", "2025-13-01", "2025-01-5"],
        ["b", "1999-12-31", "1999-12-31 23:59", "1999/12/31", "n/a", "2025-19-39", "2025-1-05"],
        ["c", "", null, "", "", "", ""],
      ].map(([id, ...values]) =>
        Object.fromEntries([["id", id], ...shapes.map((name, i) => [name, values[i] ?? null])]),
      ),
    });
    const result = await describeTableTool.execute({ table: "shapes" }, await context(clerk));
    const kinds = Object.fromEntries(result.rows?.map((r) => [r.column, r.kind]) ?? []);
    // The month's and day's first digits are checked (0-1, 0-3), not whole values: 2025-13-01 has the shape.
    expect(kinds).toEqual({
      id: "text",
      iso: "date",
      stamped: "date",
      slashed: "text",
      mixed: "text",
      month13: "date",
      short: "text",
    });
  });
});
