import { z } from "zod";
import type { TableColumn, TableSchema } from "../spec/source.js";
import { defineTool, type ToolContext } from "./define-tool.js";

/** The column every table source has: the row's citable document id (`tickets.csv#T-1042`). */
export const ROW_ID_COLUMN = "_id";

/** A table the principal may query, with its columns (without `_id`). */
export interface ReadableTable {
  name: string;
  /** The source holding it (a `table` source, or a folder with CSV files). */
  source: string;
  description: string;
  schema: TableSchema;
  columns: TableColumn[];
}

export function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Every table of the principal's readable sources, by name: a `table` source's, and those of folders holding
 * CSV files. Asks the store when a `table` source comes without its schemas, never widening the sources.
 */
export async function readableTables(
  ctx: Pick<ToolContext, "sources" | "store" | "principal">,
): Promise<ReadableTable[]> {
  let sources = ctx.sources;
  if (sources.some((s) => s.kind === "table" && s.tables === undefined)) {
    const names = new Set(sources.map((s) => s.name));
    sources = (await ctx.store.listSources(ctx.principal)).filter((s) => names.has(s.name));
  }
  return sources
    .flatMap((s) =>
      (s.tables ?? []).map((table) => ({
        name: table.name,
        source: s.name,
        description: s.description,
        schema: table,
        columns: table.columns.filter((c) => c.name !== ROW_ID_COLUMN),
      })),
    )
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The readable table named `name` (exact, else ignoring case). */
export function findTable(tables: readonly ReadableTable[], name: string): ReadableTable | undefined {
  return tables.find((t) => t.name === name) ?? tables.find((t) => t.name.toLowerCase() === name.toLowerCase());
}

/** The hint for a table the principal cannot see: missing and unreadable look the same. */
export function noSuchTable(name: string, tables: readonly ReadableTable[]): string {
  const names = tables.map((t) => t.name);
  return `no such table: ${name}; tables you can query: ${names.length > 0 ? names.join(", ") : "(none)"}`;
}

/** `list_tables`: the tables the principal may query with SQL. */
export const listTablesTool = defineTool({
  name: "list_tables",
  description:
    "List the tables you can query with run_sql: name, description, row count and columns. " +
    "Use it before writing SQL; describe_table shows a table's values.",
  inputSchema: z.object({}),
  parallelSafe: true,
  reads: "tables",
  describeCall: () => "the list of tables",
  async execute(_args, ctx) {
    const tables = await readableTables(ctx);
    if (tables.length === 0) {
      return { status: "no_results", rows: [], hint: "no table source is readable by you; use search instead" };
    }
    const rows = [];
    for (const table of tables) {
      const count = await ctx.store.querySql(`SELECT COUNT(*) AS n FROM ${quoteName(table.name)}`, ctx.principal, {
        signal: ctx.signal,
      });
      rows.push({
        name: table.name,
        source: table.source,
        description: table.description,
        rows: Number(count.rows[0]?.n ?? 0),
        columns: table.columns.map((c) => `${c.name} ${c.type}`).join(", "),
        primaryKey: table.schema.primaryKey,
      });
    }
    return {
      status: "ok",
      rows,
      hint: `every table also has ${ROW_ID_COLUMN}, the row's citable id; select it in run_sql to get the rows as passages`,
    };
  },
});
