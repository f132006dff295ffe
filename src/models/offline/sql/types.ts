import type { TableSchema } from "../../../spec/source.js";
import type { SqlDialect } from "../../../spec/sql-dialect.js";

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
  /** Empty cells, and distinct non-empty values (from `describe_table`). */
  nulls?: number;
  distinct?: number;
  /** Values are yes/no (or true/false): naming the column means `= yes`. */
  boolean?: boolean;
}

/** One condition of the WHERE clause, with how to say it. */
export interface SqlCondition {
  sql: string;
  label: string;
  /** Where the question names it (a share's part is its last-named condition). */
  at?: number;
  /** For `column IN (...)`: the column and how many values it lists (a comparison groups by it). */
  list?: { column: string; size: number };
}

export type SqlPlanKind = "count" | "count_distinct" | "sum" | "avg" | "min" | "max" | "group" | "top_group" | "share";

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
  /** For a group comparing two named values ("did A or B ... more"): which end wins. */
  compare?: "max" | "min";
  /** For top_group: highest (`desc`) or lowest (`asc`) first. */
  order?: "asc" | "desc";
  /** For sum/avg/min/max: what is measured, in words (`amount`, `days from created_at to resolved_at`). */
  measure?: string;
  /** For share: the condition whose share of the matching rows is asked, in words. */
  part?: string;
  /** Question words no column, value or cue accounted for (the answer says so). */
  unmapped?: string[];
}

export interface PlanSqlOptions {
  question: string;
  /** The SQL dialect of the store that will run the plan (`TableStoreV1.sqlDialect`). */
  dialect: SqlDialect;
  table: TableSchema & { description: string };
  /** Rows of `describe_table` for this table (column, type, values, min, max, kind). */
  describe?: readonly Record<string, unknown>[];
  /** Question words left unaccounted for that a plan may still carry (and name in its answer); default 0. */
  maxUnmapped?: number;
  /** Rows of the distinct-values probe (`column`, `value`), when it ran. */
  distinct?: readonly Record<string, unknown>[];
}
