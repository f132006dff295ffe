import { describeRange, findDateRanges } from "./dates.js";
import type { Scan, VerbHit } from "./scan.js";
import { ident, literal } from "./sql-text.js";
import type { ColumnProfile, SqlCondition } from "./types.js";

/** The data's only year, when every date column's min and max fall in one year. */
export function onlyYear(columns: readonly ColumnProfile[]): number | undefined {
  const years = new Set<string>();
  for (const column of columns) {
    if (!column.dateLike) continue;
    for (const v of [column.min, column.max]) if (typeof v === "string") years.add(v.slice(0, 4));
  }
  const [year] = years;
  return years.size === 1 && year !== undefined && /^\d{4}$/.test(year) ? Number(year) : undefined;
}

/** The latest date in any date column (the `max` describe_table read): relative windows count back from it. */
export function latestDate(columns: readonly ColumnProfile[]): string | undefined {
  let latest: string | undefined;
  for (const column of columns) {
    if (column.dateLike && typeof column.max === "string" && (latest === undefined || column.max > latest)) {
      latest = column.max;
    }
  }
  return latest;
}

export interface DateConditions {
  conditions: SqlCondition[];
  /** Columns a range was put on. */
  columns: Set<string>;
  /** Verb hits used to choose a column (accounted for). */
  used: VerbHit[];
  /** A range lies wholly outside its column's dates (from `describe_table`'s min and max). */
  outside?: boolean;
}

/**
 * Date ranges of the question, each on the date column its verb names (nearest verb before the range,
 * else after it), else on the first date-like column.
 */
export function dateConditions(scan: Scan, verbs: readonly VerbHit[]): DateConditions | undefined {
  const dateColumns = scan.columns.filter((c) => c.dateLike);
  const ranges = findDateRanges(scan.text, { defaultYear: onlyYear(scan.columns), latest: latestDate(scan.columns) });
  const out: DateConditions = { conditions: [], columns: new Set(), used: [] };
  if (ranges.length === 0) return out;
  const fallback = dateColumns[0];
  if (fallback === undefined) return undefined;
  for (const range of ranges) {
    const before = verbs.filter((v) => v.to <= range.from).at(-1);
    const after = verbs.find((v) => v.from >= range.to);
    const verb = before ?? after;
    const column = verb?.column ?? fallback;
    if (verb) out.used.push(verb);
    scan.mask.take(range.from, range.to);
    const parts: string[] = [];
    if (range.start !== undefined) parts.push(`${ident(column.name)} >= ${literal(range.start)}`);
    if (range.end !== undefined) parts.push(`${ident(column.name)} < ${literal(range.end)}`);
    const sql = parts.join(" AND ");
    if (!out.conditions.some((c) => c.sql === sql))
      out.conditions.push({ sql, label: describeRange(column.name, range) });
    out.columns.add(column.name);
    const min = typeof column.min === "string" ? column.min.slice(0, 10) : undefined;
    const max = typeof column.max === "string" ? column.max.slice(0, 10) : undefined;
    if (
      (range.end !== undefined && min !== undefined && range.end <= min) ||
      (range.start !== undefined && max !== undefined && range.start > max)
    ) {
      out.outside = true;
    }
  }
  for (const verb of out.used) scan.mask.take(verb.from, verb.to);
  return out;
}
