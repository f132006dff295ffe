import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { TableSchema } from "../../../spec/source.js";
import { sqliteDialect } from "../../../stores/sqlite/sql-dialect.js";
import { answerFromRows } from "./answer-rows.js";
import { planSql } from "./plan-sql.js";
import type { SqlPlan } from "./types.js";

// A small made-up table: 12 orders of a shop in 2025.
const ROWS: [string, string, string | null, string, string, string, number, number][] = [
  ["O-01", "2025-01-05", "2025-01-07", "north", "shipped", "web", 120.5, 2],
  ["O-02", "2025-02-11", "2025-02-20", "south", "shipped", "phone", 80, 1],
  ["O-03", "2025-03-02", null, "north", "pending", "web", 45, 1],
  ["O-04", "2025-03-15", "2025-03-16", "east", "shipped", "web", 300, 5],
  ["O-05", "2025-03-30", null, "west", "cancelled", "phone", 60, 2],
  ["O-06", "2025-04-02", "2025-04-09", "north", "shipped", "web", 210, 3],
  ["O-07", "2025-04-18", null, "south", "on_hold", "web", 95, 1],
  ["O-08", "2025-05-01", "2025-05-03", "north", "shipped", "phone", 40, 1],
  ["O-09", "2025-05-21", null, "east", "pending", "web", 150, 4],
  ["O-10", "2025-06-09", "2025-06-19", "south", "shipped", "web", 75, 2],
  ["O-11", "2025-06-30", null, "west", "cancelled", "web", 20, 1],
  ["O-12", "2025-07-04", "2025-07-05", "north", "shipped", "web", 500, 6],
];
const TABLE: TableSchema & { description: string } = {
  name: "orders",
  primaryKey: "order_id",
  description: "Shop orders for 2025, one row per order: region, status, sales channel, amount and items.",
  columns: [
    { name: "order_id", type: "TEXT" },
    { name: "placed_at", type: "TEXT" },
    { name: "shipped_at", type: "TEXT" },
    { name: "region", type: "TEXT" },
    { name: "status", type: "TEXT" },
    { name: "channel", type: "TEXT" },
    { name: "amount", type: "REAL" },
    { name: "items", type: "INTEGER" },
    { name: "_id", type: "TEXT" },
  ],
};
const DESCRIBE = [
  { column: "order_id", type: "TEXT", kind: "text", distinct: 12 },
  { column: "placed_at", type: "TEXT", kind: "date", min: "2025-01-05", max: "2025-07-04" },
  { column: "shipped_at", type: "TEXT", kind: "date", min: "2025-01-07", max: "2025-07-05" },
  { column: "region", type: "TEXT", kind: "text", values: ["north", "south", "east", "west"] },
  { column: "status", type: "TEXT", kind: "text", values: ["shipped", "pending", "cancelled", "on_hold"] },
  { column: "channel", type: "TEXT", kind: "text", values: ["web", "phone"] },
  { column: "amount", type: "REAL", kind: "number", min: 20, max: 500 },
  { column: "items", type: "INTEGER", kind: "number", values: [1, 2, 3, 4, 5, 6], min: 1, max: 6 },
];

const db = new Database(":memory:");
db.exec(
  "CREATE TABLE orders (order_id TEXT, placed_at TEXT, shipped_at TEXT, region TEXT, status TEXT, channel TEXT, amount REAL, items INTEGER, _id TEXT)",
);
const insert = db.prepare("INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
for (const row of ROWS) insert.run(...row, `orders.csv#${row[0]}`);
afterAll(() => db.close());

function plan(question: string): SqlPlan {
  const p = planSql({ question, dialect: sqliteDialect, table: TABLE, describe: DESCRIBE });
  if (!p) throw new Error(`no plan for: ${question}`);
  return p;
}

function run(p: SqlPlan) {
  const rows = db.prepare(p.sql).all() as Record<string, unknown>[];
  const listRows = db.prepare(p.listSql).all() as Record<string, unknown>[];
  return { rows, ids: listRows.map((r) => r.order_id), listRows };
}

describe("planSql", () => {
  it("counts rows in a month, on the date column the verb names", () => {
    const p = plan("How many orders were placed in March 2025?");
    expect(p.kind).toBe("count");
    const { rows, ids } = run(p);
    expect(rows).toEqual([{ n: 3 }]);
    expect(ids).toEqual(["O-03", "O-04", "O-05"]);
    expect(p.explanation).toBe("count of orders where placed_at between 2025-03-01 and 2025-03-31");
    const shipped = run(plan("How many web orders were shipped between 2025-04-01 and 2025-06-30?"));
    expect(shipped.ids).toEqual(["O-06", "O-10"]);
  });

  it("combines values of one column with IN and of several columns with AND", () => {
    expect(run(plan("How many orders are pending or on_hold?")).ids).toEqual(["O-03", "O-07", "O-09"]);
    expect(run(plan("How many orders are pending or on hold in the north region?")).ids).toEqual(["O-03"]);
    expect(run(plan("How many phone orders are not cancelled?")).ids).toEqual(["O-02", "O-08"]);
  });

  it("compares two named values per value (grouped, filtered to the two), naming the winner", () => {
    const p = plan("Did north or south orders have a larger total amount?");
    expect(p.kind).toBe("group");
    expect(p.sql).toContain("GROUP BY");
    const { rows } = run(p);
    expect(rows).toEqual([
      { region: "north", value: 915.5 },
      { region: "south", value: 250 },
    ]);
    expect(answerFromRows({ plan: p, rows })).toMatch(
      /^north has the higher total amount: 915\.5, against 250 for south/,
    );
    const fewer = plan("Were there fewer orders in the east or west region?");
    expect(answerFromRows({ plan: fewer, rows: run(fewer).rows })).toMatch(/have the same number of orders: 2/);
    const web = plan("Did web or phone have fewer orders?");
    expect(answerFromRows({ plan: web, rows: run(web).rows })).toMatch(
      /^phone has the lower number of orders: 3, against 9 for web/,
    );
  });

  it("finds which group has the most rows, keeping ties", () => {
    const p = plan("Which region had the most orders placed in Q2 2025 (April to June)?");
    expect(p.kind).toBe("top_group");
    const { rows, ids } = run(p);
    expect(rows).toEqual([
      { region: "north", n: 2 },
      { region: "south", n: 2 },
    ]);
    expect(ids).toEqual(["O-06", "O-07", "O-08", "O-10"]);
    expect(run(plan("Which channel had the fewest orders?")).rows).toEqual([{ channel: "phone", n: 3 }]);
  });

  it("sums, averages and takes extremes of a numeric column", () => {
    expect(run(plan("What is the total amount of orders in the north region?")).rows).toEqual([{ value: 915.5, n: 5 }]);
    expect(run(plan("What is the average amount of cancelled orders?")).rows).toEqual([{ value: 40, n: 2 }]);
    const max = plan("What was the largest order amount in April 2025?");
    expect(max.kind).toBe("max");
    expect(run(max)).toMatchObject({ rows: [{ value: 210, n: 2 }], ids: ["O-06"] });
    expect(run(plan("When was the latest order placed?")).rows).toEqual([{ value: "2025-07-04", n: 12 }]);
    expect(run(plan("When was the most recent order shipped?"))).toMatchObject({
      rows: [{ value: "2025-07-05", n: 7 }],
      ids: ["O-12"],
    });
    expect(run(plan("Which region had the highest total amount?")).rows).toEqual([{ region: "north", value: 915.5 }]);
  });

  it("compares numbers and durations between two date columns", () => {
    expect(run(plan("How many orders have more than 3 items?")).ids).toEqual(["O-04", "O-09", "O-12"]);
    const slow = plan("How many orders took more than 7 days to ship?");
    expect(run(slow).ids).toEqual(["O-02", "O-10"]);
    expect(slow.explanation).toContain("shipped_at more than 7 day(s) after placed_at");
    expect(run(plan("What is the average time to ship an order?")).rows).toEqual([{ value: 4.57, n: 7 }]);
  });

  it("reads a negated verb as an empty date column", () => {
    expect(run(plan("How many orders are unshipped?")).ids).toEqual(["O-03", "O-05", "O-07", "O-09", "O-11"]);
    expect(run(plan("How many north orders have not been shipped yet?")).ids).toEqual(["O-03"]);
  });

  it("counts distinct values and breaks counts down by a column or by month", () => {
    const p = plan("How many distinct regions have at least one cancelled order, and which are they?");
    expect(run(p).rows).toEqual([{ n: 1, values: "west" }]);
    expect(run(plan("How many orders per channel?")).rows).toEqual([
      { channel: "web", n: 9 },
      { channel: "phone", n: 3 },
    ]);
    expect(run(plan("Which month had the most orders?")).rows).toEqual([{ month: "2025-03", n: 3 }]);
  });

  it("takes the data's only year for a month named without one, and open ranges", () => {
    expect(run(plan("How many orders were placed in May?")).ids).toEqual(["O-08", "O-09"]);
    expect(run(plan("How many orders were placed since June 2025?")).ids).toEqual(["O-10", "O-11", "O-12"]);
    expect(run(plan("How many orders were placed before 2025-02-01?")).ids).toEqual(["O-01"]);
  });

  it("returns undefined for questions that are not aggregations over this table", () => {
    const others = [
      "What is the status of order O-03?",
      "How many engineers are on call this week?",
      "How many orders mention a refund?",
      "Who placed order O-05?",
      "How many orders were delayed by the storm?",
    ];
    for (const question of others)
      expect(planSql({ question, dialect: sqliteDialect, table: TABLE, describe: DESCRIBE }), question).toBeUndefined();
  });
});

describe("answerFromRows", () => {
  it("states the result with its conditions and names few rows", () => {
    const p = plan("How many orders were placed in March 2025?");
    const { rows, listRows } = run(p);
    expect(answerFromRows({ plan: p, rows })).toBe("3 orders match (placed_at between 2025-03-01 and 2025-03-31).");
    expect(answerFromRows({ plan: p, rows, listRows, primaryKey: "order_id" })).toBe(
      "3 orders match (placed_at between 2025-03-01 and 2025-03-31) [O-03, O-04, O-05].",
    );
  });

  it("names tied winners, distinct values and measures", () => {
    const top = plan("Which region had the most orders placed in Q2 2025?");
    expect(answerFromRows({ plan: top, rows: run(top).rows })).toBe(
      "north and south tie with the most orders: 2 orders (placed_at between 2025-04-01 and 2025-06-30).",
    );
    const distinct = plan("How many distinct regions have cancelled orders?");
    expect(answerFromRows({ plan: distinct, rows: run(distinct).rows })).toBe(
      "1 distinct region value among the matching orders (status = 'cancelled'): west.",
    );
    const avg = plan("What is the average amount of cancelled orders?");
    expect(answerFromRows({ plan: avg, rows: run(avg).rows })).toBe(
      "The average amount is 40, over 2 orders (status = 'cancelled').",
    );
    const count = plan("How many orders are there?");
    expect(answerFromRows({ plan: count, rows: run(count).rows })).toBe("There are 12 orders in total.");
  });
});
