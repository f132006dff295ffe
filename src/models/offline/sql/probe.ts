import type { TableSchema } from "../../../spec/source.js";
import { ROW_ID } from "./profile.js";
import { ident, literal } from "./sql-text.js";

/**
 * The distinct-values probe: one read-only query listing every distinct value (`column`, `value`) of the text
 * columns `describe_table` sampled only in part (it lists the most frequent few) and that have at most
 * `maxValues` distinct values. Undefined when no column needs it. Run through `run_sql`, so it is traced and
 * counted against the budgets like any other call.
 */
export function distinctProbeSql(
  table: TableSchema,
  describe: readonly Record<string, unknown>[] = [],
  maxValues = 60,
): string | undefined {
  const parts: string[] = [];
  for (const row of describe) {
    const column = String(row.column ?? "");
    if (column === "" || column === ROW_ID || column === table.primaryKey || row.kind !== "text") continue;
    if (!table.columns.some((c) => c.name === column)) continue;
    const distinct = Number(row.distinct);
    const sampled = Array.isArray(row.values) ? row.values.length : 0;
    if (!(distinct > sampled) || distinct > maxValues) continue;
    const c = ident(column);
    parts.push(
      `SELECT ${literal(column)} AS "column", ${c} AS value FROM ${ident(table.name)} WHERE NULLIF(${c}, '') IS NOT NULL GROUP BY ${c}`,
    );
  }
  return parts.length > 0 ? parts.join(" UNION ALL ") : undefined;
}
