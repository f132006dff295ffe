import { z } from "zod";
import { guardSql } from "../safety/sql-guard.js";
import { SqlInvalidError, SqlRejectedError, SqlTimeoutError, StoreQueryError } from "../spec/errors.js";
import type { Passage } from "../spec/passage.js";
import type { ToolResult } from "../spec/tool-result.js";
import { type AnyTool, defineTool, type ToolContext } from "./define-tool.js";
import { describeTableTool } from "./describe-table.js";
import { listTablesTool, noSuchTable, type ReadableTable, ROW_ID_COLUMN, readableTables } from "./list-tables.js";

export const DEFAULT_SQL_ROWS = 200;
export const MAX_SQL_ROWS = 1000;
/** How many returned rows come back as passages to cite. */
export const MAX_ROW_PASSAGES = 10;
/** A query's time limit: below the executor's own, so a slow query ends as a timeout the model can act on. */
export const SQL_TIMEOUT_MS = 5000;
/** The share of the tool's own time limit a query may use (the rest reads the tables and the row passages). */
const SQL_SHARE_OF_TOOL_TIME = 0.75;

/** The query's time limit within a call that may take `toolTimeoutMs` (the executor's per-tool limit). */
export function sqlTimeoutMs(toolTimeoutMs: number | undefined): number {
  if (toolTimeoutMs === undefined) return SQL_TIMEOUT_MS;
  return Math.max(1, Math.min(SQL_TIMEOUT_MS, Math.floor(toolTimeoutMs * SQL_SHARE_OF_TOOL_TIME)));
}

export const runSqlInput = z.object({
  sql: z
    .string()
    .trim()
    .min(1, "sql must not be empty")
    .describe(
      `One read-only SELECT (or WITH ... SELECT) over the tables list_tables shows. Each table has a ${ROW_ID_COLUMN} ` +
        "column with the row's citable id: select it to get the rows as passages.",
    ),
  maxRows: z
    .number()
    .int()
    .min(1)
    .max(MAX_SQL_ROWS)
    .default(DEFAULT_SQL_ROWS)
    .describe(`Most rows to return, 1..${MAX_SQL_ROWS}.`),
});

/**
 * The row documents of the first returned row ids, as passages the answer can cite. A row id is
 * `<file>#<key>`; the tables holding that file name the source to read it from (two sources may hold the same
 * file path, and then each one's row is returned, with its source).
 */
export async function rowPassages(
  ids: readonly string[],
  ctx: Pick<ToolContext, "store" | "principal">,
  tables: readonly ReadableTable[] = [],
): Promise<Passage[]> {
  const out: Passage[] = [];
  for (const id of ids) {
    const file = id.slice(0, id.lastIndexOf("#"));
    const sources = [...new Set(tables.filter((t) => t.schema.file === file).map((t) => t.source))].sort();
    for (const source of sources.length > 0 ? sources : [undefined]) {
      const passage = await rowPassage(id, source, ctx);
      if (passage !== undefined) out.push(passage);
    }
  }
  return out;
}

async function rowPassage(
  id: string,
  source: string | undefined,
  ctx: Pick<ToolContext, "store" | "principal">,
): Promise<Passage | undefined> {
  // A table written before schema v2 may carry its source's path in `_id` (`dir/file.csv#key`) while its
  // documents are `file.csv#key`.
  const doc =
    (await ctx.store.getDocument(id, ctx.principal, { source })) ??
    (id.includes("/")
      ? await ctx.store.getDocument(id.replace(/^.*\/(?=[^/]*#)/, ""), ctx.principal, { source })
      : undefined);
  if (doc === undefined) return undefined;
  // A row is one chunk; if it was split, the passage is the whole row under the row id itself.
  const [chunk] = await ctx.store.getChunks([`${doc.id}::0`], ctx.principal, { source: doc.source });
  const whole = chunk !== undefined && chunk.text === doc.text;
  const passage: Passage = {
    id: whole ? chunk.id : doc.id,
    docId: doc.id,
    source: doc.source,
    title: doc.title,
    text: doc.text,
    score: 1,
  };
  if (doc.updatedAt !== undefined) passage.updatedAt = doc.updatedAt;
  return passage;
}

/** A failed query as a result with a hint the model can act on; undefined for errors that are not the query's. */
function sqlFailure(error: unknown, tables: readonly ReadableTable[]): ToolResult | undefined {
  if (!(error instanceof StoreQueryError)) return undefined;
  switch (error.code) {
    case "timeout": {
      const ms = error instanceof SqlTimeoutError ? error.timeoutMs : undefined;
      const ran = ms === undefined ? "ran too long" : `ran past ${seconds(ms)}`;
      return {
        status: "timeout",
        hint:
          `the query ${ran} and was stopped; add a WHERE on a selective column or a LIMIT, aggregate ` +
          "(COUNT, GROUP BY) instead of listing rows, and avoid cross joins and recursive CTEs",
      };
    }
    case "memory":
      return {
        status: "error",
        hint:
          "the query needed more working memory than it may use and was stopped; filter with WHERE before sorting " +
          "or grouping, add a LIMIT, and avoid cross joins",
      };
    case "value_size":
      return {
        status: "error",
        hint: "the query built a value larger than the database allows; select smaller values",
      };
    case "read_only":
      return { status: "error", hint: `read-only: ${error.message}` };
    case "no_such_table":
      if (error instanceof SqlInvalidError && error.missingTable !== undefined) {
        return { status: "error", hint: noSuchTable(error.missingTable, tables) };
      }
      break;
  }
  const detail = error instanceof SqlInvalidError ? error.detail : error.message;
  const columns = tables.map((t) => `${t.name}(${t.columns.map((c) => c.name).join(", ")}, ${ROW_ID_COLUMN})`);
  return { status: "error", hint: `the query cannot run: ${detail}. Tables: ${columns.join("; ")}` };
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/** `run_sql`: one read-only SELECT over the table sources the principal may read. */
export const runSqlTool = defineTool({
  name: "run_sql",
  description:
    "Run one read-only SQL SELECT over the table sources (see list_tables, describe_table) for counts, sums, " +
    `averages, grouping and filtering. Returns up to ${DEFAULT_SQL_ROWS} rows; rows with ${ROW_ID_COLUMN} also come ` +
    "back as citable passages.",
  inputSchema: runSqlInput,
  parallelSafe: true,
  reads: "tables",
  describeCall: (args) => `SQL '${args.sql}'`,
  async execute(args, ctx) {
    let sql: string;
    try {
      sql = guardSql(args.sql);
    } catch (error) {
      if (error instanceof SqlRejectedError) return { status: "error", hint: `read-only: ${error.message}` };
      throw error;
    }
    const tables = await readableTables(ctx);
    let result: Awaited<ReturnType<typeof ctx.store.querySql>>;
    try {
      result = await ctx.store.querySql(sql, ctx.principal, {
        maxRows: args.maxRows,
        timeoutMs: sqlTimeoutMs(ctx.timeoutMs),
        signal: ctx.signal,
      });
    } catch (error) {
      const failure = sqlFailure(error, tables);
      if (failure === undefined) throw error;
      return failure;
    }
    const ids = [
      ...new Set(result.rows.map((r) => r[ROW_ID_COLUMN]).filter((id): id is string => typeof id === "string")),
    ];
    const passages = await rowPassages(ids.slice(0, MAX_ROW_PASSAGES), ctx, tables);
    const notes: string[] = [];
    if (result.truncatedBy === "bytes") {
      notes.push(
        `truncated: showing the first ${result.rows.length} rows, as many as fit the result-size cap; select fewer ` +
          "columns, aggregate (COUNT, GROUP BY) or narrow with WHERE to see the rest",
      );
    } else if (result.truncated) {
      notes.push(
        `truncated: showing the first ${args.maxRows} rows; aggregate (COUNT, GROUP BY) or narrow with WHERE to see the rest`,
      );
    }
    if (result.clippedCells !== undefined) {
      notes.push(`${result.clippedCells} long values were cut; select substr(column, start, length) to read more`);
    }
    if (ids.length > MAX_ROW_PASSAGES) notes.push(`passages for the first ${MAX_ROW_PASSAGES} of ${ids.length} rows`);
    if (result.rows.length === 0) {
      return {
        status: "no_results",
        rows: [],
        hint: "the query returned no rows; check the values and date formats with describe_table",
      };
    }
    const out: ToolResult = { status: "ok", rows: result.rows, passages };
    if (notes.length > 0) out.hint = notes.join("; ");
    return out;
  },
});

/** The SQL tools, for `createToolset({ sources, tools: sqlTools })`. */
export const sqlTools: AnyTool[] = [listTablesTool, describeTableTool, runSqlTool] as AnyTool[];
