import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Principal } from "../spec/principal.js";
import type { StoreV1, TableWrite } from "../spec/store.js";
import { ACME, acmeOwner, alice, harriet, type OpenStore, olga, seed, TICKETS } from "./fixtures.js";

/**
 * The `tables` capability suite: tables per file with tenant-unique names, read-only SQL that sees only the
 * principal's tables, typed errors, row caps, time limits and aborts, and the store's SQL dialect.
 */
const table = (source: string, file: string, name: string, keys: string[]): TableWrite => ({
  tenant: ACME,
  source,
  file,
  schema: { name, primaryKey: "id", columns: [{ name: "id", type: "TEXT" }] },
  rows: keys.map((id) => ({ id })),
});

/** Dates as ISO text, a status in mixed case, an optional note (NULL or empty in two rows). */
const CASES: TableWrite = {
  tenant: ACME,
  source: "cases",
  file: "cases.csv",
  schema: {
    name: "cases",
    primaryKey: "id",
    columns: [
      { name: "id", type: "TEXT" },
      { name: "opened", type: "TEXT" },
      { name: "closed", type: "TEXT" },
      { name: "status", type: "TEXT" },
      { name: "note", type: "TEXT" },
    ],
  },
  rows: [
    { id: "c1", opened: "2025-01-01", closed: "2025-01-11", status: "Open", note: "called back" },
    { id: "c2", opened: "2025-01-20", closed: "2025-02-04", status: "open", note: null },
    { id: "c3", opened: "2025-02-03", closed: "2025-02-04", status: "CLOSED", note: "" },
  ],
};

/** Tables per file with tenant-unique names, and the SQL dialect the store declares, run on its own tables. */
function runTableNamesSuite(name: string, open: OpenStore): void {
  describe(`tables suite: ${name}: names and dialect`, () => {
    let store: StoreV1;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
      for (const [source, acl] of [
        ["wiki_a", []],
        ["wiki_b", ["hr"]],
      ] as const) {
        await store.putSource({ name: source, tenant: ACME, kind: "documents", description: source, acl: [...acl] });
      }
    });

    afterEach(async () => {
      await store.close();
      await cleanup();
    });

    describe("tables", () => {
      it("holds one table per file, names them per tenant, and suffixes a taken name", async () => {
        await store.putSource({ name: "tickets", tenant: ACME, kind: "table", description: "T", acl: [] });
        await store.putSource({ name: "payroll", tenant: ACME, kind: "documents", description: "P", acl: ["hr"] });
        expect(await store.writeTable(table("wiki_a", "data/orders.csv", "orders", ["o1", "o2"]))).toEqual({
          name: "orders",
        });
        expect(await store.writeTable(table("wiki_a", "data/refunds.csv", "refunds", ["r1"]))).toEqual({
          name: "refunds",
        });
        // Another source, another file, the same wanted name (any case): the next free suffix.
        expect(await store.writeTable(table("payroll", "Orders.csv", "Orders", ["p1"]))).toEqual({ name: "Orders_2" });
        // Written again: the same file keeps its name.
        expect(await store.writeTable(table("wiki_a", "data/orders.csv", "orders", ["o1"]))).toEqual({
          name: "orders",
        });
        expect(await store.writeTable(table("payroll", "Orders.csv", "Orders", ["p1", "p2"]))).toEqual({
          name: "Orders_2",
        });
        const wiki = (await store.listSources(alice)).find((s) => s.name === "wiki_a");
        expect(wiki?.tables?.map((t) => [t.name, t.file])).toEqual([
          ["orders", "data/orders.csv"],
          ["refunds", "data/refunds.csv"],
        ]);
        const rows = async (principal: Principal, sql: string) => (await store.querySql(sql, principal)).rows;
        expect(await rows(alice, "SELECT id, _id FROM orders UNION ALL SELECT id, _id FROM refunds")).toEqual([
          { id: "o1", _id: "data/orders.csv#o1" },
          { id: "r1", _id: "data/refunds.csv#r1" },
        ]);
        expect(await rows(harriet, "SELECT count(*) AS n FROM Orders_2")).toEqual([{ n: 2 }]);
        await expect(store.querySql("SELECT * FROM Orders_2", alice)).rejects.toMatchObject({
          name: "SqlInvalidError",
          missingTable: "Orders_2",
        });
      });

      it("drops the tables of files no longer kept, and all of them with their source", async () => {
        await store.writeTable(table("wiki_a", "a.csv", "a", ["1"]));
        await store.writeTable(table("wiki_a", "b.csv", "b", ["1"]));
        await store.removeTables(ACME, "wiki_a", ["b.csv"]);
        expect(
          (await store.listSources(acmeOwner)).find((s) => s.name === "wiki_a")?.tables?.map((t) => t.name),
        ).toEqual(["b"]);
        await expect(store.querySql("SELECT * FROM a", acmeOwner)).rejects.toMatchObject({
          name: "SqlInvalidError",
          missingTable: "a",
        });
        // The freed name can be taken again without a suffix.
        expect(await store.writeTable(table("wiki_b", "a.csv", "a", ["2"]))).toEqual({ name: "a" });
        await store.removeSource(ACME, "wiki_a");
        await expect(store.querySql("SELECT * FROM b", acmeOwner)).rejects.toMatchObject({
          name: "SqlInvalidError",
          missingTable: "b",
        });
      });

      it("refuses reserved and repeated column names", async () => {
        for (const column of ["_id", "rowid", "OID", "_rowid_"]) {
          const bad: TableWrite = {
            ...table("wiki_a", "x.csv", "x", []),
            schema: {
              name: "x",
              primaryKey: "id",
              columns: [
                { name: "id", type: "TEXT" },
                { name: column, type: "TEXT" },
              ],
            },
          };
          await expect(store.writeTable(bad), column).rejects.toMatchObject({ name: "InvalidInputError" });
        }
        const twice: TableWrite = {
          ...table("wiki_a", "x.csv", "x", []),
          schema: {
            name: "x",
            primaryKey: "id",
            columns: [
              { name: "id", type: "TEXT" },
              { name: "ID", type: "TEXT" },
            ],
          },
        };
        await expect(store.writeTable(twice)).rejects.toMatchObject({ name: "InvalidInputError" });
      });
    });

    describe("the SQL dialect", () => {
      it("writes SQL this store runs: day spans, case-blind equality, date prefixes, joined values, presence", async () => {
        await store.putSource({ name: "cases", tenant: ACME, kind: "table", description: "Cases", acl: [] });
        await store.writeTable(CASES);
        const d = store.sqlDialect;
        const rows = async (sql: string) => (await store.querySql(sql, alice)).rows;
        expect(await rows(`SELECT id, ${d.daysBetween("opened", "closed")} AS days FROM cases ORDER BY id`)).toEqual([
          { id: "c1", days: 10 },
          { id: "c2", days: 15 },
          { id: "c3", days: 1 },
        ]);
        expect(await rows(`SELECT id FROM cases WHERE ${d.equalsIgnoreCase("status", "'OPEN'")} ORDER BY id`)).toEqual([
          { id: "c1" },
          { id: "c2" },
        ]);
        expect(
          await rows(`SELECT ${d.datePrefix("opened", 7)} AS month, COUNT(*) AS n FROM cases GROUP BY 1 ORDER BY 1`),
        ).toEqual([
          { month: "2025-01", n: 2 },
          { month: "2025-02", n: 1 },
        ]);
        const [joined] = await rows(
          `SELECT ${d.joinValues("v")} AS "values" FROM (SELECT DISTINCT ${d.datePrefix("closed", 4)} AS v FROM cases) AS t`,
        );
        expect(joined).toEqual({ values: "2025" });
        const [all] = await rows(`SELECT ${d.joinValues("id")} AS "values" FROM cases`);
        expect(String(all?.values).split(", ").sort()).toEqual(["c1", "c2", "c3"]);
        expect(await rows(`SELECT id FROM cases WHERE ${d.present("note")} ORDER BY id`)).toEqual([{ id: "c1" }]);
        expect(await rows(`SELECT id FROM cases WHERE ${d.absent("note")} ORDER BY id`)).toEqual([
          { id: "c2" },
          { id: "c3" },
        ]);
      });
    });
  });
}

export interface TablesSuiteOptions {
  /**
   * False for a server that cannot stop a running query (PGlite runs one query at a time and ignores
   * statement_timeout): the tests of SQL time limits and aborts are skipped.
   */
  stopsSql?: boolean;
}

export function runTablesSuite(name: string, open: OpenStore, options: TablesSuiteOptions = {}): void {
  const stoppable = options.stopsSql === false ? it.skip : it;
  runTableNamesSuite(name, open);
  describe(`tables suite: ${name}`, () => {
    let store: StoreV1;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
      await seed(store);
    });

    afterEach(async () => {
      await store.close();
      await cleanup();
    });

    const kw = (principal: Principal, terms: string[], extra: Record<string, unknown> = {}) =>
      store.keywordSearch({ principal, terms, k: 10, ...extra });
    const _vec = (principal: Principal, vector: number[], extra: Record<string, unknown> = {}) =>
      store.vectorSearch({ principal, vector: Float32Array.from(vector), k: 10, strategy: "exact", ...extra });

    describe("table sources", () => {
      it("reports the SQL schema of table sources", async () => {
        const tickets = (await store.listSources(alice)).find((s) => s.name === "tickets")!;
        expect(tickets.kind).toBe("table");
        expect(tickets.tables?.map((t) => [t.name, t.file])).toEqual([["tickets", "tickets.csv"]]);
        expect(tickets.tables?.[0]?.primaryKey).toBe("ticket_id");
        expect(tickets.tables?.[0]?.columns.map((c) => c.name)).toEqual(
          expect.arrayContaining(["ticket_id", "title", "hours"]),
        );
      });
    });

    describe("read-only SQL over table sources", () => {
      it("queries tables by source name, with citable row ids", async () => {
        const result = await store.querySql("SELECT count(*) AS n FROM tickets", alice);
        expect(result).toEqual({ columns: ["n"], rows: [{ n: 5 }], truncated: false });
        const row = await store.querySql("SELECT ticket_id, title, hours, _id FROM tickets WHERE ticket_id = 2", alice);
        expect(row.rows).toEqual([{ ticket_id: 2, title: "Ticket 2", hours: 3, _id: "tickets.csv#2" }]);
      });

      it("replaces a table when written again", async () => {
        await store.writeTable({ ...TICKETS, rows: TICKETS.rows.slice(0, 2) });
        expect((await store.querySql("SELECT count(*) AS n FROM tickets", alice)).rows).toEqual([{ n: 2 }]);
      });

      it("shows a principal only the tables it may read", async () => {
        await expect(store.querySql("SELECT * FROM payroll", alice)).rejects.toMatchObject({
          name: "SqlInvalidError",
          reason: "missing_table",
          missingTable: "payroll",
        });
        expect((await store.querySql("SELECT salary FROM payroll ORDER BY salary", harriet)).rows).toEqual([
          { salary: 100 },
          { salary: 120 },
        ]);
        await expect(store.querySql("SELECT * FROM tickets", olga)).rejects.toMatchObject({
          name: "SqlInvalidError",
          missingTable: "tickets",
        });
      });

      it("refuses anything but one read-only SELECT and leaves the table unchanged", async () => {
        const attempts = [
          "DROP TABLE tickets",
          "UPDATE tickets SET hours = 0",
          "INSERT INTO tickets (ticket_id, title, hours) VALUES (9, 'x', 1)",
          "DELETE FROM tickets",
          "CREATE TABLE evil (x)",
          "ATTACH DATABASE 'evil.db' AS evil",
          "PRAGMA writable_schema = 1",
          "SELECT 1; DELETE FROM tickets",
          "SELECT * FROM tickets; SELECT 2",
          "",
        ];
        for (const sql of attempts) {
          await expect(store.querySql(sql, acmeOwner), sql).rejects.toMatchObject({ name: "SqlRejectedError" });
        }
        const after = await store.querySql("SELECT count(*) AS n, sum(hours) AS h FROM tickets", acmeOwner);
        expect(after.rows).toEqual([{ n: 5, h: 22.5 }]);
      });

      it("truncates at maxRows and says so", async () => {
        const limited = await store.querySql("SELECT ticket_id FROM tickets ORDER BY ticket_id", alice, { maxRows: 2 });
        expect(limited).toEqual({
          columns: ["ticket_id"],
          rows: [{ ticket_id: 1 }, { ticket_id: 2 }],
          truncated: true,
          truncatedBy: "rows",
        });
        expect((await store.querySql("SELECT ticket_id FROM tickets", alice, { maxRows: 5 })).truncated).toBe(false);
      });

      stoppable("stops a runaway query at its time limit", async () => {
        const runaway =
          "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 50000000) SELECT x FROM n";
        await expect(store.querySql(runaway, alice, { maxRows: 100_000_000, timeoutMs: 1 })).rejects.toMatchObject({
          name: "SqlTimeoutError",
          code: "timeout",
          timeoutMs: 1,
        });
      });

      it("names an unknown table, an unknown column and a syntax error with portable codes", async () => {
        await expect(store.querySql("SELECT colour FROM tickets", alice)).rejects.toMatchObject({
          name: "SqlInvalidError",
          category: "user",
          code: "no_such_column",
          reason: "missing_column",
          column: "colour",
        });
        await expect(store.querySql("SELECT * FROM nowhere", alice)).rejects.toMatchObject({
          code: "no_such_table",
          missingTable: "nowhere",
        });
        await expect(store.querySql("SELECT title FROM tickets WHERE", alice)).rejects.toMatchObject({
          name: "SqlInvalidError",
          code: "syntax",
        });
        await expect(store.querySql("DELETE FROM tickets", alice)).rejects.toMatchObject({
          name: "SqlRejectedError",
          code: "read_only",
        });
      });
    });

    describe("SQL that can be stopped", () => {
      /** 400 rows: joins of three or four copies run for minutes. */
      const BIG: TableWrite = {
        tenant: ACME,
        source: "big",
        file: "big.csv",
        schema: {
          name: "big",
          primaryKey: "n",
          columns: [
            { name: "n", type: "INTEGER" },
            { name: "label", type: "TEXT" },
          ],
        },
        rows: Array.from({ length: 400 }, (_, n) => ({ n, label: `label number ${n}` })),
      };
      const RUNAWAYS: [string, string][] = [
        ["a recursive CTE", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"],
        ["a cross join", "SELECT count(*) FROM big a, big b, big c, big d"],
        [
          "an ORDER BY over a huge join",
          "SELECT a.label || b.label || c.label AS k FROM big a, big b, big c ORDER BY k",
        ],
      ];

      beforeEach(async () => {
        await store.putSource({ name: "big", tenant: ACME, kind: "table", description: "Big", acl: [] });
        await store.writeTable(BIG);
      });

      for (const [shape, runaway] of RUNAWAYS) {
        stoppable(`stops ${shape} at its time limit while the store keeps answering`, async () => {
          const order: string[] = [];
          const query = store.querySql(runaway, alice, { timeoutMs: 1500 }).then(
            () => order.push("sql finished"),
            (error: Error) => order.push(`sql ${error.name}`),
          );
          // Asked after the query started: answers while it runs (the old store blocked here for ever).
          const hits = await kw(alice, ["vacation"]);
          order.push("search");
          expect(hits.length).toBeGreaterThan(0);
          await query;
          expect(order).toEqual(["search", "sql SqlTimeoutError"]);
          // The next query gets a fresh runner.
          expect((await store.querySql("SELECT count(*) AS n FROM big", alice)).rows).toEqual([{ n: 400 }]);
        });
      }

      stoppable("stops a query when its caller aborts", async () => {
        const controller = new AbortController();
        const query = store.querySql(RUNAWAYS[0]![1], alice, { timeoutMs: 60_000, signal: controller.signal });
        await kw(alice, ["vacation"]);
        controller.abort(new Error("caller gave up"));
        await expect(query).rejects.toThrow("caller gave up");
        expect((await store.querySql("SELECT count(*) AS n FROM big", alice)).rows).toEqual([{ n: 400 }]);
      });
    });
  });
}
