import type { TableSchema } from "../../../spec/source.js";

/** What the planner knows of one column (from the schema and a `describe_table` row). */
export interface ColumnProfile {
  name: string;
  type: "TEXT" | "INTEGER" | "REAL";
  /** Sample values, most frequent first (present for columns with few distinct values). */
  values: string[];
  /** Every non-empty value fits ISO `YYYY-MM-DD...`. */
  dateLike: boolean;
  numeric: boolean;
  min?: string | number;
  max?: string | number;
  /** Normalised phrases that name the column: `created at`, `created`; `merchant id`, `merchant`. */
  aliases: string[];
  /** For a date column: the stem of its verb (`created_at` -> `created`). */
  verb?: string;
}

/** One condition of the WHERE clause, with how to say it. */
export interface SqlCondition {
  sql: string;
  label: string;
}

export type SqlPlanKind = "count" | "count_distinct" | "sum" | "avg" | "min" | "max" | "group" | "top_group";

/** A question turned into SQL over one table. */
export interface SqlPlan {
  /** The aggregate query. */
  sql: string;
  /** The matching rows' `_id` (and key columns), for citation. */
  listSql: string;
  /** Readable summary: what is computed over which rows. */
  explanation: string;
  kind: SqlPlanKind;
  table: string;
  /** What one row is, in words (`tickets`). */
  noun: string;
  conditions: SqlCondition[];
  /** The grouped column (group, top_group), the counted column (count_distinct) or the measured one. */
  column?: string;
  /** For top_group: highest (`desc`) or lowest (`asc`) first. */
  order?: "asc" | "desc";
  /** For sum/avg/min/max: what is measured, in words (`amount`, `days from created_at to resolved_at`). */
  measure?: string;
}

export interface PlanSqlOptions {
  question: string;
  table: TableSchema & { description: string };
  /** Rows of `describe_table` for this table (column, type, values, min, max, kind). */
  describe?: readonly Record<string, unknown>[];
}
