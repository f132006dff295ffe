import { ident } from "./sql-text.js";

/**
 * The SQL the planner writes that differs between databases. Dates are ISO text in every store
 * (`YYYY-MM-DD...`); a PostgreSQL store supplies its own dialect with the same functions.
 */
export interface SqlDialect {
  /** Days from one date column to another, as a number. */
  daysBetween(start: string, end: string): string;
  /** `column = 'value'`, ignoring case. */
  equalsIgnoreCase(column: string, literal: string): string;
  /** The first `length` characters of an ISO date column (7: month, 4: year). */
  datePrefix(column: string, length: number): string;
  /** The distinct values of an expression joined by `, ` (an aggregate). */
  joinValues(expression: string): string;
  /** The column holds a value (not NULL, not the empty string). */
  present(column: string): string;
  /** The column is empty (NULL or the empty string). */
  absent(column: string): string;
}

export const sqliteDialect: SqlDialect = {
  daysBetween: (start, end) => `julianday(${ident(end)}) - julianday(${ident(start)})`,
  equalsIgnoreCase: (column, literal) => `${ident(column)} = ${literal} COLLATE NOCASE`,
  datePrefix: (column, length) => `substr(${ident(column)}, 1, ${length})`,
  joinValues: (expression) => `group_concat(${expression}, ', ')`,
  present: (column) => `NULLIF(${ident(column)}, '') IS NOT NULL`,
  absent: (column) => `NULLIF(${ident(column)}, '') IS NULL`,
};
