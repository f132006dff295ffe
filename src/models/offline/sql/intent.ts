import { AGGREGATE_CUES, type AggregateCue, MEASURE_ADJECTIVES } from "./cues.js";
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
  rank: boolean;
  share: boolean;
  superlative?: "max" | "min";
  /** A superlative that names its measure too (`lightest`: the minimum weight). */
  concept?: string;
}

/** Reads the intent words (any language in the cue tables) left after conditions took theirs, and accounts for them. */
export function readIntent(scan: Scan): Intent {
  const visible = scan.mask.visible();
  const intent: Intent = { count: false, distinct: false, avg: false, sum: false, rank: false, share: false };
  for (const { cue, concept, dir } of MEASURE_ADJECTIVES) {
    for (const hit of findPhrase(visible, cue)) {
      if (!scan.mask.free(hit.from, hit.to)) continue;
      intent.superlative ??= dir;
      intent.concept ??= concept;
      scan.mask.take(hit.from, hit.to);
    }
  }
  const flags = ["count", "distinct", "avg", "sum", "rank", "share"] as const;
  const cues = (Object.keys(AGGREGATE_CUES) as AggregateCue[])
    .flatMap((kind) => AGGREGATE_CUES[kind].map((cue) => ({ kind, cue })))
    .sort((x, y) => y.cue.length - x.cue.length);
  for (const { kind, cue } of cues) {
    for (const hit of findPhrase(visible, cue)) {
      if (!scan.mask.free(hit.from, hit.to)) continue;
      scan.mask.take(hit.from, hit.to);
      if (kind === "max" || kind === "min") intent.superlative ??= kind;
      else if ((flags as readonly string[]).includes(kind)) intent[kind as (typeof flags)[number]] = true;
    }
  }
  return intent;
}

/** Does the question ask for a computation over rows (in any language of the cue tables)? */
export function asksAggregate(question: string): boolean {
  const text = question.normalize("NFKC").toLowerCase();
  return (
    (Object.values(AGGREGATE_CUES) as (readonly string[])[]).some((cues) =>
      cues.some((cue) => findPhrase(text, cue).length > 0),
    ) || MEASURE_ADJECTIVES.some((a) => findPhrase(text, a.cue).length > 0)
  );
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
  "(?:which|what|per|by|for each|for every|each|across|grouped by|broken down by|break down by|breakdown by|rank the|rank|welche|welcher|welches|pro|je|nach)";

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
            sql: scan.dialect.datePrefix(dateColumn.name, unit === "month" ? 7 : 4),
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
