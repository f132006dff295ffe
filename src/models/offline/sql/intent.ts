import { findPhrase } from "./mask.js";
import type { Scan } from "./scan.js";
import { ident } from "./sql-text.js";
import type { ColumnProfile } from "./types.js";

/** What the question asks to compute, from its wording. */
export interface Intent {
  count: boolean;
  distinct: boolean;
  avg: boolean;
  sum: boolean;
  superlative?: "max" | "min";
}

const WORDS: [keyof Omit<Intent, "superlative">, RegExp][] = [
  ["count", /\b(?:how many|number of|count)\b/g],
  ["distinct", /\b(?:distinct|different|unique)\b/g],
  ["avg", /\b(?:average|mean|avg)\b/g],
  ["sum", /\b(?:total|sum|combined)\b/g],
];
const MAX = /\b(?:most recent|most|highest|largest|biggest|greatest|maximum|max|latest|newest)\b/g;
const MIN = /\b(?:fewest|least|lowest|smallest|minimum|min|earliest|oldest)\b/g;

/** Reads the intent words left after conditions took theirs, and accounts for them. */
export function readIntent(scan: Scan): Intent {
  const visible = scan.mask.visible();
  const intent: Intent = { count: false, distinct: false, avg: false, sum: false };
  for (const [key, re] of WORDS) {
    for (const m of visible.matchAll(re)) {
      intent[key] = true;
      scan.mask.take(m.index ?? 0, (m.index ?? 0) + m[0].length);
    }
  }
  for (const [kind, re] of [
    ["max", MAX],
    ["min", MIN],
  ] as const) {
    for (const m of visible.matchAll(re)) {
      intent.superlative ??= kind;
      scan.mask.take(m.index ?? 0, (m.index ?? 0) + m[0].length);
    }
  }
  return intent;
}

/** What rows are grouped by: a column, or the month or year of a date column. */
export interface Grouping {
  sql: string;
  /** Output column name. */
  name: string;
  column: ColumnProfile;
  /** Set when the question asked which one (`which service ...`). */
  which: boolean;
}

const LEAD =
  "(?:which|what|per|by|for each|for every|each|across|grouped by|broken down by|break down by|breakdown by)";

/** `which service ...`, `per channel`, `by month`: the grouping, if the question names one. */
export function findGrouping(scan: Scan, dateColumn: ColumnProfile | undefined): Grouping | undefined {
  const visible = scan.mask.visible(scan.loose);
  const options: { alias: string; make: () => Omit<Grouping, "which"> | undefined }[] = [
    ...scan.columns
      .filter((c) => !c.numeric || c.values.length > 0)
      .flatMap((column) =>
        column.aliases.map((alias) => ({
          alias,
          make: () => ({ sql: ident(column.name), name: column.name, column }),
        })),
      ),
    ...(["month", "year"] as const).flatMap((unit) =>
      [unit, `${unit}s`].map((alias) => ({
        alias,
        make: () =>
          dateColumn && {
            sql: `substr(${ident(dateColumn.name)}, 1, ${unit === "month" ? 7 : 4})`,
            name: unit,
            column: dateColumn,
          },
      })),
    ),
  ];
  options.sort((a, b) => b.alias.length - a.alias.length);
  for (const option of options) {
    const re = new RegExp(`\\b(${LEAD})\\s+${option.alias.replace(/\s+/g, "\\s+")}\\b`, "g");
    const m = re.exec(visible);
    if (!m) continue;
    const made = option.make();
    if (!made) continue;
    const from = m.index;
    scan.mask.take(from, from + m[0].length);
    // Later mentions of the same name ("services ... which service") are accounted for too.
    for (const hit of findPhrase(visible, option.alias)) scan.mask.take(hit.from, hit.to);
    return { ...made, which: m[1] === "which" || m[1] === "what" };
  }
  return undefined;
}

/** `how many distinct services`: the column whose distinct values are counted. */
export function findDistinct(scan: Scan, primaryKey: string): ColumnProfile | undefined {
  const visible = scan.mask.visible(scan.loose);
  for (const column of scan.columns) {
    if (column.name === primaryKey) continue;
    for (const alias of column.aliases) {
      const re = new RegExp(`\\b(?:distinct|different|unique)\\s+${alias.replace(/\s+/g, "\\s+")}\\b`);
      const m = re.exec(visible);
      if (!m) continue;
      scan.mask.take(m.index, m.index + m[0].length);
      for (const hit of findPhrase(visible, alias)) scan.mask.take(hit.from, hit.to);
      return column;
    }
  }
  return undefined;
}
