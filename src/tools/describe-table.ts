import { z } from "zod";
import { tableStoreOf } from "../spec/store.js";
import { defineTool } from "./define-tool.js";
import { findTable, noSuchTable, quoteName, ROW_ID_COLUMN, readableTables } from "./list-tables.js";

/** Columns with at most this many distinct values list them (most frequent first). */
export const MAX_SAMPLE_VALUES = 12;
/** Columns with more distinct values than this are not sampled (free text, ids). */
const FEW_DISTINCT = 25;
/** The characters an ISO date starts with, position by position: `YYYY-MM-DD` (the first digit of MM is 0-1, of DD 0-3). */
const ISO_DATE_SHAPE: readonly (readonly [string, string])[] = [
  ["0", "9"],
  ["0", "9"],
  ["0", "9"],
  ["0", "9"],
  ["-", "-"],
  ["0", "1"],
  ["0", "9"],
  ["-", "-"],
  ["0", "3"],
  ["0", "9"],
];

/**
 * SQL that is true when a text value starts with an ISO date, in SQL every store runs (no GLOB, no regular
 * expression): one single-character comparison per position.
 */
function startsWithIsoDate(value: string): string {
  return ISO_DATE_SHAPE.map(([lo, hi], i) =>
    lo === hi ? `SUBSTR(${value}, ${i + 1}, 1) = '${lo}'` : `SUBSTR(${value}, ${i + 1}, 1) BETWEEN '${lo}' AND '${hi}'`,
  ).join(" AND ");
}

/** One row of `describe_table`. */
export interface ColumnDescription {
  column: string;
  type: "TEXT" | "INTEGER" | "REAL";
  kind: "date" | "number" | "text";
  distinct: number;
  /** Empty cells. */
  nulls: number;
  /** Up to 12 values, most frequent first, for columns with few distinct values. */
  values?: (string | number)[];
  min?: string | number;
  max?: string | number;
  key?: true;
}

/** `describe_table`: a table's columns with types, sample values and ranges. */
export const describeTableTool = defineTool({
  name: "describe_table",
  description:
    "Describe one table you can query: its columns with types, the values of columns with few distinct values, " +
    "and min/max of numeric and date columns. Use it to write correct WHERE clauses for run_sql.",
  inputSchema: z.object({
    table: z.string().trim().min(1, "table must not be empty").describe("The table name, as list_tables gives it."),
  }),
  parallelSafe: true,
  reads: "tables",
  describeCall: (args) => `the columns of table ${args.table}`,
  async execute(args, ctx) {
    const tables = await readableTables(ctx);
    const table = findTable(tables, args.table);
    if (table === undefined) return { status: "error", hint: noSuchTable(args.table, tables) };
    const t = quoteName(table.name);
    const dialect = tableStoreOf(ctx.store)?.sqlDialect;
    const stats = table.columns.flatMap((c, i) => {
      const v = dialect?.emptyAsNull(c.name, c.type) ?? `NULLIF(${quoteName(c.name)}, '')`;
      return [
        `COUNT(${v}) AS p${i}`,
        `COUNT(DISTINCT ${v}) AS d${i}`,
        `MIN(${v}) AS lo${i}`,
        `MAX(${v}) AS hi${i}`,
        // Only text columns can hold dates (numbers are never described as dates).
        c.type === "TEXT" ? `SUM(CASE WHEN ${startsWithIsoDate(v)} THEN 1 ELSE 0 END) AS iso${i}` : `0 AS iso${i}`,
      ];
    });
    const summary = await ctx.store.querySql(
      `SELECT COUNT(*) AS total, ${stats.join(", ")}, MIN(${ROW_ID_COLUMN}) AS example FROM ${t}`,
      ctx.principal,
      { signal: ctx.signal },
    );
    const s = summary.rows[0] ?? {};
    const total = Number(s.total ?? 0);
    const rows: ColumnDescription[] = [];
    for (const [i, c] of table.columns.entries()) {
      const present = Number(s[`p${i}`] ?? 0);
      const distinct = Number(s[`d${i}`] ?? 0);
      const kind = c.type !== "TEXT" ? "number" : present > 0 && Number(s[`iso${i}`]) === present ? "date" : "text";
      const row: ColumnDescription = { column: c.name, type: c.type, kind, distinct, nulls: total - present };
      if (c.name === table.schema.primaryKey) row.key = true;
      if (distinct > 0 && distinct <= FEW_DISTINCT && distinct < present && kind !== "date") {
        const name = quoteName(c.name);
        const values = await ctx.store.querySql(
          `SELECT ${name} AS v, COUNT(*) AS n FROM ${t} WHERE ${dialect?.emptyAsNull(c.name, c.type) ?? `NULLIF(${name}, '')`} IS NOT NULL GROUP BY ${name} ORDER BY n DESC, ${name} LIMIT ${MAX_SAMPLE_VALUES}`,
          ctx.principal,
          { signal: ctx.signal },
        );
        row.values = values.rows.map((r) => r.v as string | number);
      }
      if (kind !== "text") {
        row.min = s[`lo${i}`] as string | number;
        row.max = s[`hi${i}`] as string | number;
      }
      rows.push(row);
    }
    const example = typeof s.example === "string" ? ` (e.g. ${s.example})` : "";
    return {
      status: "ok",
      rows: rows as unknown as Record<string, unknown>[],
      hint:
        `${table.name}: ${total} rows, primary key ${table.schema.primaryKey}; every row also has ${ROW_ID_COLUMN}, ` +
        `its citable id${example}. Dates are ISO text (compare with >= '2026-03-01'). Query with run_sql.`,
    };
  },
});
