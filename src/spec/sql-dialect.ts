/**
 * The SQL a planner writes that differs between databases, supplied by the store that runs the SQL
 * (`TableStoreV1.sqlDialect`). Arguments named `column` are bare column names (the dialect quotes them);
 * `literal` and `expression` are SQL already. Dates are ISO text in every store (`YYYY-MM-DD...`).
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
  /** A number expression rounded to `digits` decimals (PostgreSQL rounds only `numeric` to a given scale). */
  round(expression: string, digits: number): string;
  /**
   * The column's value with an empty string as NULL, keeping the column's type: a number column stays a number
   * (its MIN and MAX compare as numbers). `type` is the column's declared type.
   */
  emptyAsNull(column: string, type: "TEXT" | "INTEGER" | "REAL"): string;
}
