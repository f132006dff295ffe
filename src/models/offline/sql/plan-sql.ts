import { fold } from "../../../text/overlap.js";
import { queryTerms, terms } from "../../../text/tokenize.js";
import { findCues, LESS, MORE } from "../question-cues.js";
import { buildPlan, type Measure } from "./build-sql.js";
import {
  comparisonConditions,
  daysBetween,
  durationColumns,
  durationConditions,
  identifierConditions,
  missingDateConditions,
} from "./conditions.js";
import { CJK_FILLER, FILLER_WORDS, synonymsOf } from "./cues.js";
import { dateConditions } from "./date-conditions.js";
import { findDistinct, findGrouping, type Grouping, readIntent } from "./intent.js";
import { findPhrase, Mask } from "./mask.js";
import { conceptColumn, presenceConditions, unitComparisons } from "./measures.js";
import { placeAliases } from "./places.js";
import { loosen, plural, profileColumns, singular } from "./profile.js";
import { type Scan, verbHits } from "./scan.js";
import { ident } from "./sql-text.js";
import type { ColumnProfile, PlanSqlOptions, SqlCondition, SqlPlan } from "./types.js";
import { booleanConditions, valueConditions } from "./values.js";

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

/** Names a row of the table goes by: the table name, its singular, `one row per X` of the description, and their synonyms. */
function tableNouns(options: Pick<PlanSqlOptions, "table">): string[] {
  const name = loosen(options.table.name).trim();
  const last = name.split(/\s+/).at(-1) ?? name;
  const perRow = /\bone row per (\p{L}+)/iu.exec(options.table.description)?.[1]?.toLowerCase();
  const nouns = [name, singular(name), last, singular(last), plural(singular(last))];
  if (perRow) nouns.push(perRow, plural(perRow));
  const all = nouns.flatMap((n) => [n, ...synonymsOf(n)]);
  return [...new Set(all.filter((n) => n.length >= 2 || /\p{Script=Han}/u.test(n)))];
}

/** Distinct values per column, from the probe's rows (`column`, `value`). */
function distinctValues(rows: readonly Record<string, unknown>[] = []): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const row of rows) {
    const column = row.column;
    const value = row.value;
    if (typeof column !== "string" || (typeof value !== "string" && typeof value !== "number")) continue;
    out.set(column, [...(out.get(column) ?? []), String(value)]);
  }
  return out;
}

/** The words of the question no column, value, date or cue accounted for. */
function unmappedWords(scan: Scan, known: ReadonlySet<string>): string[] {
  let visible = scan.mask.visible();
  for (const particle of [...CJK_FILLER].sort((a, b) => b.length - a.length))
    visible = visible.replaceAll(particle, " ");
  const latin = queryTerms(visible.replace(CJK_RUN, " ")).filter(
    (w) => w.length > 1 && !/^\d+$/.test(w) && !known.has(w) && !known.has(fold(w)),
  );
  const cjk = [...visible.matchAll(CJK_RUN)].map((m) => m[0]).filter((w) => w.length >= 2 && !known.has(w));
  return [...latin, ...cjk];
}

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;

/** ` (2026-01-05 to 2026-06-29)`: the range of the table's date columns. */
function dateSpan(columns: readonly ColumnProfile[]): string {
  const dates = columns.filter((c) => c.dateLike && typeof c.min === "string" && typeof c.max === "string");
  if (dates.length === 0) return "";
  const min = dates.map((c) => String(c.min).slice(0, 10)).sort()[0];
  const max = dates
    .map((c) => String(c.max).slice(0, 10))
    .sort()
    .at(-1);
  return ` (${min} to ${max})`;
}

const TIME_UNITS = new Set(
  "hour hours day days daily week weeks weekly month months monthly year years yearly annually tag tage woche wochen monat monate jahr jahre".split(
    " ",
  ),
);

/** A word that names a thing: a known place, a word with digits, or one written capitalised inside the sentence. */
function namesSomething(word: string, original: string): boolean {
  if (placeAliases(word).codes.length > 0 || /\d/.test(word) || /\p{Script=Han}|\p{Script=Katakana}/u.test(word)) {
    return true;
  }
  const lower = original.toLowerCase();
  for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
    const inside = /\p{L}.*\s$/su.test(original.slice(0, at));
    if (inside && /^\p{Lu}/u.test(original.slice(at, at + 1))) return true;
  }
  return false;
}

/**
 * Turns an aggregation question about one table into SQL: counts, sums, averages, minima and maxima, shares,
 * breakdowns, rankings and "which X had the most", filtered by the column values, dates and numbers it names.
 * Returns undefined unless every content word of the question is accounted for by the table (its name,
 * columns, values, dates) or by aggregation wording (up to `maxUnmapped` words, which the plan then lists),
 * so a question it only half understands is left to search.
 */
export function planSql(options: PlanSqlOptions): SqlPlan | undefined {
  return mapQuestion(options).plan;
}

/** What planning made of a question: the plan, or why there is none (in words an answer can carry). */
export interface SqlMapping {
  plan?: SqlPlan;
  /** Why no plan: which words or conditions the table could not account for. */
  reason?: string;
}

/** Plans a question like `planSql`, and says why when it cannot. */
export function mapQuestion(options: PlanSqlOptions): SqlMapping {
  const written = options.question.normalize("NFKC");
  const text = written.toLowerCase();
  const scan: Scan = {
    text,
    original: written.length === text.length ? written : text,
    loose: loosen(text),
    mask: new Mask(text),
    columns: profileColumns(options.table, options.describe, distinctValues(options.distinct)),
    dialect: options.dialect,
  };
  const nouns = tableNouns(options);
  const nounHits = nouns.flatMap((n) => findPhrase(scan.loose, n));
  for (const hit of nounHits) scan.mask.take(hit.from, hit.to);
  for (const m of text.matchAll(/\bat least one\b|\bi\.e\.|\be\.g\./g)) {
    scan.mask.take(m.index ?? 0, (m.index ?? 0) + m[0].length);
  }

  const verbs = verbHits(scan);
  const dates = dateConditions(scan, verbs);
  if (dates === undefined) return { reason: "it names a date but the table has no date column" };
  const free = verbs.filter((v) => !dates.used.includes(v));
  const missing = missingDateConditions(scan, free);
  const durations = durationConditions(scan, free, dates.columns);
  if (durations === undefined) return { reason: "it names a duration no pair of date columns measures" };
  // "the most recent order shipped": the verb names the date measured, not a status value.
  const dated = /\b(?:most recent|latest|earliest|newest|oldest)\b/.exec(text);
  const timed = dated ? free.find((v) => v.from > dated.index && scan.mask.free(v.from, v.to)) : undefined;
  if (timed) scan.mask.take(timed.from, timed.to);
  const conditions: SqlCondition[] = [
    ...valueConditions(scan, nouns),
    ...booleanConditions(scan),
    ...identifierConditions(scan),
    ...unitComparisons(scan),
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
  const compared = distinct ? undefined : comparedValues(scan, conditions);
  const grouping = distinct ? undefined : (compared?.grouping ?? findGrouping(scan, dateColumn));
  const intent = readIntent(scan);
  const measure = timed
    ? { sql: ident(timed.column.name), label: timed.column.name, column: timed.column.name, date: true }
    : findMeasure(scan, options, intent, grouping?.column.name, dateColumn, free, dates.columns);
  conditions.push(...presenceConditions(scan, [grouping?.column.name, measure?.column]));
  // The question must name the table's rows, one of its columns, or values of them.
  const named = scan.columns.some((c) => c.aliases.some((a) => findPhrase(scan.loose, a).length > 0));
  if (nounHits.length === 0 && !named && conditions.length === 0) {
    return { reason: `it names none of the ${options.table.name} table's rows, columns or values` };
  }

  // Every remaining word must name a column (or be filler); anything else is a condition we did not understand.
  const known = new Set([
    ...FILLER,
    ...FILLER_WORDS,
    ...nouns,
    ...scan.columns.flatMap((c) => c.aliases.flatMap((a) => [a, ...a.split(/\s+/)])),
    ...terms(options.table.description).map(fold),
  ]);
  const unmapped = unmappedWords(scan, known);
  const notMapped = { reason: `no column or value of the ${options.table.name} table matches: ${unmapped.join(", ")}` };
  if (unmapped.length > (options.maxUnmapped ?? 0)) return notMapped;
  // A name the data does not hold (`Australia`, `Yokohama`, `DHL`) is a condition that matches nothing known:
  // never left out.
  if (unmapped.some((w) => namesSomething(w, scan.original))) return notMapped;
  // A word left out is tolerable only beside conditions the question did name, and never a time unit (`a week`
  // asks for a rate the table does not hold).
  if (unmapped.length > 0 && (conditions.length === 0 || unmapped.some((w) => TIME_UNITS.has(w)))) return notMapped;
  // A date range wholly outside the data (`in 2025` over a 2026 log) is not a zero: the data does not cover it.
  if (dates.outside) {
    const span = dateSpan(scan.columns);
    return { reason: `the dates asked for fall outside the ${options.table.name} table's data${span}` };
  }

  const plan = buildPlan({
    table: options.table,
    noun: nouns[0]!,
    conditions,
    intent,
    grouping,
    measure,
    distinct,
    ...(compared ? { compare: compared.compare } : {}),
    dialect: options.dialect,
  });
  if (!plan)
    return { reason: `no count, sum, average, extreme or breakdown of the ${options.table.name} table fits it` };
  if (unmapped.length > 0) plan.unmapped = unmapped;
  return { plan };
}

/**
 * "Did A or B have more ...", "Waren es bei A oder B weniger ...": a comparative between exactly two values
 * of one column is answered per value (grouped by that column, filtered to the two), not summed over both.
 */
export function comparedValues(
  scan: Scan,
  conditions: readonly SqlCondition[],
): { grouping: Grouping; compare: "max" | "min" } | undefined {
  const lists = conditions.filter((c) => c.list?.size === 2);
  const column = lists.length === 1 ? scan.columns.find((c) => c.name === lists[0]?.list?.column) : undefined;
  if (!column) return undefined;
  const visible = scan.mask.visible(scan.loose);
  const more = findCues(visible, MORE).filter((h) => scan.mask.free(h.start, h.end));
  const less = findCues(visible, LESS).filter((h) => scan.mask.free(h.start, h.end));
  const first = [...more, ...less].sort((a, b) => a.start - b.start)[0];
  if (!first) return undefined;
  scan.mask.take(first.start, first.end);
  const compare = less.includes(first) ? "min" : "max";
  return { grouping: { sql: ident(column.name), name: column.name, column, which: true }, compare };
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
  const take = (column: ColumnProfile): Measure => {
    for (const a of column.aliases) for (const h of findPhrase(visible, a)) scan.mask.take(h.from, h.to);
    return { sql: ident(column.name), label: column.name, column: column.name };
  };
  if (numeric.length === 0 && intent.concept) {
    const column = conceptColumn(scan.columns, intent.concept);
    if (column) return take(column);
  }
  if (numeric.length === 1) return take(numeric[0]!);
  if (numeric.length > 1) return undefined;
  if (intent.avg && /\b(?:time|long|days|duration|took|take|dauer|tage|日数|期間)\b/.test(visible)) {
    const span = durationColumns(scan, verbs, rangeColumns);
    if (span) {
      for (const verb of span.verbs) scan.mask.take(verb.from, verb.to);
      for (const m of visible.matchAll(/\b(?:time|long|days|duration|took|take|dauer|tage)\b/g)) {
        scan.mask.take(m.index, m.index + m[0].length);
      }
      return {
        sql: scan.dialect.round(daysBetween(scan, span.start, span.end), 2),
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

/**
 * Does the question speak of the table: its rows (`shipments`, `Sendungen`), a column (`declared value`), the
 * verb of a date column (`bookings` for `booked_on`), or a place its description lists by code (`大阪` for OSA)?
 * Decides whether a table is worth describing; the plan itself still has to account for every word.
 */
export function speaksOfTable(question: string, table: PlanSqlOptions["table"]): boolean {
  const text = question.normalize("NFKC").toLowerCase();
  const loose = loosen(text);
  if (tableNouns({ table }).some((n) => findPhrase(loose, n).length > 0)) return true;
  const columns = profileColumns(table);
  if (columns.some((c) => c.aliases.some((a) => a.length >= 4 && findPhrase(loose, a).length > 0))) return true;
  if (verbHits({ text, original: text, loose, mask: new Mask(text), columns }).length > 0) return true;
  const codes = new Set(table.description.split(/[^\p{L}\p{N}]+/u).filter((w) => /^[A-Z]{2,5}$/.test(w)));
  return terms(text).some((word) => placeAliases(word).codes.some((code) => codes.has(code)));
}
