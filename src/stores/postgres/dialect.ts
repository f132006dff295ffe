import type { SqlDialect } from "../dialect.js";
import { quoteIdent as ident } from "./db.js";

/**
 * The planner's SQL for PostgreSQL. Dates are ISO text (`YYYY-MM-DD...`) as in every store; a value that is
 * not a date makes `daysBetween` NULL instead of failing the query.
 */
export const postgresDialect: SqlDialect = {
  daysBetween: (start, end) =>
    `(CASE WHEN ${ident(end)} ~ '^\\d{4}-\\d{2}-\\d{2}' AND ${ident(start)} ~ '^\\d{4}-\\d{2}-\\d{2}'
      THEN (substr(${ident(end)}, 1, 10)::date - substr(${ident(start)}, 1, 10)::date) END)`,
  equalsIgnoreCase: (column, literal) => `lower(${ident(column)}) = lower(${literal})`,
  datePrefix: (column, length) => `substr(${ident(column)}, 1, ${length})`,
  joinValues: (expression) => `string_agg(DISTINCT (${expression})::text, ', ')`,
  present: (column) => `NULLIF(${ident(column)}::text, '') IS NOT NULL`,
  absent: (column) => `NULLIF(${ident(column)}::text, '') IS NULL`,
  // ROUND(x, n) exists for numeric only; AVG of a double precision column is double precision.
  round: (expression, digits) => `ROUND((${expression})::numeric, ${digits})`,
  // Number columns are bigint or double precision here and cannot hold '' (comparing one with '' fails).
  emptyAsNull: (column, type) => (type === "TEXT" ? `NULLIF(${ident(column)}, '')` : ident(column)),
};
