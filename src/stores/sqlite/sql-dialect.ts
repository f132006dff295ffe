import type { SqlDialect } from "../../spec/sql-dialect.js";

function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** SQLite's dialect: ISO dates through `julianday`, `COLLATE NOCASE`, `group_concat`. */
export const sqliteDialect: SqlDialect = {
  daysBetween: (start, end) => `julianday(${ident(end)}) - julianday(${ident(start)})`,
  equalsIgnoreCase: (column, literal) => `${ident(column)} = ${literal} COLLATE NOCASE`,
  datePrefix: (column, length) => `substr(${ident(column)}, 1, ${length})`,
  joinValues: (expression) => `group_concat(${expression}, ', ')`,
  present: (column) => `NULLIF(${ident(column)}, '') IS NOT NULL`,
  absent: (column) => `NULLIF(${ident(column)}, '') IS NULL`,
  round: (expression, digits) => `ROUND(${expression}, ${digits})`,
  // A number column of SQLite can hold '' (type affinity keeps it as text), so every column drops it.
  emptyAsNull: (column) => `NULLIF(${ident(column)}, '')`,
};
