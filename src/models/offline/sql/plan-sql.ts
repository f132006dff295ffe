import { fold } from "../../../text/overlap.js";
import { terms } from "../../../text/tokenize.js";
import { buildPlan, type Measure } from "./build-sql.js";
import {
  comparisonConditions,
  daysBetween,
  durationColumns,
  durationConditions,
  identifierConditions,
  missingDateConditions,
  valueConditions,
} from "./conditions.js";
import { dateConditions } from "./date-conditions.js";
import { findDistinct, findGrouping, readIntent } from "./intent.js";
import { findPhrase, Mask } from "./mask.js";
import { loosen, plural, profileColumns, singular } from "./profile.js";
import { type Scan, verbHits } from "./scan.js";
import { ident } from "./sql-text.js";
import type { PlanSqlOptions, SqlCondition, SqlPlan } from "./types.js";

/** Words an aggregation question may use that say nothing about which rows. */
const FILLER = new Set(
  (
    "many much number count total sum average mean distinct different unique per each every which what whose there " +
    "still currently current now overall altogether ever been being have has had get got gets come came comes coming " +
    "filed opened logged raised submitted received arrived recorded made placed entered went ie eg via through " +
    "rows row records record entries entry them they those these value values list name names also together " +
    "across respectively whole entire yet far so time long took take takes taken did does do doing data table " +
    "greater above below under over fewer less more least most than one"
  ).split(" "),
);

/** Names a row of the table goes by: the table name, its singular, and `one row per X` of the description. */
function tableNouns(options: PlanSqlOptions): string[] {
  const name = loosen(options.table.name).trim();
  const last = name.split(/\s+/).at(-1) ?? name;
  const perRow = /\bone row per (\p{L}+)/iu.exec(options.table.description)?.[1]?.toLowerCase();
  const nouns = [name, singular(name), last, singular(last), plural(singular(last))];
  if (perRow) nouns.push(perRow, plural(perRow));
  return [...new Set(nouns.filter((n) => n.length >= 2))];
}

/**
 * Turns an aggregation question about one table into SQL: counts, sums, averages, minima and maxima,
 * breakdowns and "which X had the most", filtered by the column values, dates and numbers it names.
 * Returns undefined unless every content word of the question is accounted for by the table (its name,
 * columns, values, dates) or by aggregation wording, so a question it only half understands is left to search.
 */
export function planSql(options: PlanSqlOptions): SqlPlan | undefined {
  const text = options.question.normalize("NFKC").toLowerCase();
  const scan: Scan = {
    text,
    loose: loosen(text),
    mask: new Mask(text),
    columns: profileColumns(options.table, options.describe),
  };
  const nouns = tableNouns(options);
  const nounHits = nouns.flatMap((n) => findPhrase(scan.loose, n));
  // The question must name the table's rows or one of its columns.
  const named = scan.columns.some((c) => c.aliases.some((a) => findPhrase(scan.loose, a).length > 0));
  if (nounHits.length === 0 && !named) return undefined;
  for (const hit of nounHits) scan.mask.take(hit.from, hit.to);
  for (const m of text.matchAll(/\bat least one\b|\bi\.e\.|\be\.g\./g)) {
    scan.mask.take(m.index ?? 0, (m.index ?? 0) + m[0].length);
  }

  const verbs = verbHits(scan);
  const dates = dateConditions(scan, verbs);
  if (dates === undefined) return undefined;
  const free = verbs.filter((v) => !dates.used.includes(v));
  const missing = missingDateConditions(scan, free);
  const durations = durationConditions(scan, free, dates.columns);
  if (durations === undefined) return undefined;
  // "the most recent order shipped": the verb names the date measured, not a status value.
  const dated = /\b(?:most recent|latest|earliest|newest|oldest)\b/.exec(text);
  const timed = dated ? free.find((v) => v.from > dated.index && scan.mask.free(v.from, v.to)) : undefined;
  if (timed) scan.mask.take(timed.from, timed.to);
  const conditions: SqlCondition[] = [
    ...valueConditions(scan, nouns),
    ...identifierConditions(scan),
    ...comparisonConditions(scan),
    ...missing,
    ...dates.conditions,
    ...durations,
  ];

  const dateColumn =
    scan.columns.find((c) => dates.columns.has(c.name)) ??
    free.find((v) => scan.mask.free(v.from, v.to))?.column ??
    scan.columns.find((c) => c.dateLike);
  const distinct = findDistinct(scan, options.table.primaryKey);
  const intent = readIntent(scan);
  const grouping = distinct ? undefined : findGrouping(scan, dateColumn);
  const measure = timed
    ? { sql: ident(timed.column.name), label: timed.column.name, column: timed.column.name, date: true }
    : findMeasure(scan, options, intent, grouping?.column.name, dateColumn, free, dates.columns);

  // Every remaining word must name a column (or be filler); anything else is a condition we did not understand.
  const known = new Set([
    ...FILLER,
    ...scan.columns.flatMap((c) => c.aliases.flatMap((a) => a.split(/\s+/))),
    ...terms(options.table.description).map(fold),
  ]);
  const unknown = scan.mask.leftover().filter((w) => w.length > 1 && !known.has(w) && !known.has(fold(w)));
  if (unknown.length > 0) return undefined;

  return buildPlan({ table: options.table, noun: nouns[0]!, conditions, intent, grouping, measure, distinct });
}

/** The numeric (or date, or duration) column a sum, average, minimum or maximum is about. */
function findMeasure(
  scan: Scan,
  options: PlanSqlOptions,
  intent: ReturnType<typeof readIntent>,
  groupColumn: string | undefined,
  dateColumn: Scan["columns"][number] | undefined,
  verbs: ReturnType<typeof verbHits>,
  rangeColumns: ReadonlySet<string>,
): Measure | undefined {
  const visible = scan.mask.visible(scan.loose);
  const mentioned = scan.columns.filter(
    (c) =>
      c.name !== options.table.primaryKey &&
      c.name !== groupColumn &&
      c.aliases.some((a) => findPhrase(visible, a).length > 0),
  );
  const numeric = mentioned.filter((c) => c.numeric);
  if (numeric.length === 1) {
    const column = numeric[0]!;
    return { sql: ident(column.name), label: column.name, column: column.name };
  }
  if (numeric.length > 1) return undefined;
  if (intent.avg && /\b(?:time|long|days|duration|took|take)\b/.test(visible)) {
    const span = durationColumns(scan, verbs, rangeColumns);
    if (span) {
      for (const verb of span.verbs) scan.mask.take(verb.from, verb.to);
      return {
        sql: `ROUND(${daysBetween(span.start, span.end)}, 2)`,
        label: `days from ${span.start.name} to ${span.end.name}`,
        column: span.end.name,
        requires: `${ident(span.end.name)} IS NOT NULL`,
      };
    }
  }
  const dates = mentioned.filter((c) => c.dateLike);
  const date = dates.length === 1 ? dates[0] : intent.superlative && !intent.count ? dateColumn : undefined;
  if (date && intent.superlative) return { sql: ident(date.name), label: date.name, column: date.name, date: true };
  return undefined;
}
