import type { Scan, VerbHit } from "./scan.js";
import { ident, literal } from "./sql-text.js";
import type { ColumnProfile, SqlCondition } from "./types.js";

const UNIT_DAYS: Record<string, number> = { hour: 1 / 24, day: 1, week: 7, month: 30 };
const DURATION =
  /\b(more than|longer than|over|at least|less than|fewer than|shorter than|under|within|at most)\s+(\d+(?:\.\d+)?)\s+(hour|day|week|month)s?\b/g;
const OPERATORS: [RegExp, string][] = [
  [/^(?:more than|longer than|greater than|heavier than|over|above|mehr als|über|schwerer als|>)$/, ">"],
  [/^(?:at least|mindestens|>=)$/, ">="],
  [/^(?:less than|fewer than|shorter than|lighter than|under|below|weniger als|unter|leichter als|<)$/, "<"],
  [/^(?:within|at most|höchstens|<=)$/, "<="],
  [/^(?:exactly|equal to|genau|=)$/, "="],
];
export const OP_WORDS =
  "more than|longer than|greater than|heavier than|lighter than|over|above|at least|less than|fewer than|shorter than|under|below|within|at most|exactly|equal to|mehr als|über|schwerer als|leichter als|mindestens|weniger als|unter|höchstens|genau|>=|<=|>|<|=";

export function operator(words: string): string | undefined {
  return OPERATORS.find(([re]) => re.test(words))?.[1];
}

/** Days from one date column to another, as SQL. */
export function daysBetween(scan: Pick<Scan, "dialect">, start: ColumnProfile, end: ColumnProfile): string {
  return scan.dialect.daysBetween(start.name, end.name);
}

/** The span from the start date column to the end one the question's verbs point at (`took 3 weeks to close`). */
export function durationColumns(
  scan: Scan,
  verbs: readonly VerbHit[],
  rangeColumns: ReadonlySet<string>,
): { start: ColumnProfile; end: ColumnProfile; verbs: VerbHit[] } | undefined {
  const dates = scan.columns.filter((c) => c.dateLike);
  if (dates.length < 2) return undefined;
  const candidates = verbs.filter((v) => !rangeColumns.has(v.column.name));
  const infinitive = candidates.find((v) => /\bto\s+$/.test(scan.text.slice(Math.max(0, v.from - 4), v.from)));
  const distinct = [...new Set(candidates.map((v) => v.column))];
  const end = infinitive?.column ?? (distinct.length === 1 ? distinct[0] : undefined) ?? dates[1];
  if (end === undefined) return undefined;
  const start =
    dates.find((c) => c !== end && rangeColumns.has(c.name)) ?? dates.find((c) => c !== end && c !== undefined);
  if (start === undefined) return undefined;
  return { start, end, verbs: candidates.filter((v) => v.column === end || v.column === start) };
}

/** `took longer than 3 weeks to close`: the time between two date columns, compared with a number. */
export function durationConditions(
  scan: Scan,
  verbs: readonly VerbHit[],
  rangeColumns: ReadonlySet<string>,
): SqlCondition[] | undefined {
  const matches = [...scan.text.matchAll(DURATION)];
  if (matches.length === 0) return [];
  const span = durationColumns(scan, verbs, rangeColumns);
  if (span === undefined) return undefined;
  const out: SqlCondition[] = [];
  for (const m of matches) {
    const op = operator(m[1]!);
    const days = Number(m[2]) * (UNIT_DAYS[m[3]!] ?? 1);
    if (op === undefined) return undefined;
    const sql = `${ident(span.end.name)} IS NOT NULL AND ${daysBetween(scan, span.start, span.end)} ${op} ${days}`;
    if (!out.some((c) => c.sql === sql)) {
      out.push({ sql, label: `${span.end.name} ${m[1]} ${m[2]} ${m[3]}(s) after ${span.start.name}` });
    }
    scan.mask.take(m.index ?? 0, (m.index ?? 0) + m[0].length);
  }
  for (const verb of span.verbs) scan.mask.take(verb.from, verb.to);
  return out;
}

/** `unresolved`, `not yet resolved`: the date column of that verb is empty. */
export function missingDateConditions(scan: Scan, verbs: readonly VerbHit[]): SqlCondition[] {
  const out: SqlCondition[] = [];
  for (const verb of verbs) {
    const prefix = /(?:\b(?:not|never)\s+(?:yet\s+|been\s+|being\s+)?)$/.exec(
      scan.text.slice(Math.max(0, verb.from - 16), verb.from),
    );
    const un =
      scan.text.slice(Math.max(0, verb.from - 2), verb.from) === "un" && !/\p{L}/u.test(scan.text[verb.from - 3] ?? "");
    if (!prefix && !un) continue;
    // `unresolved` is one word: the hit then starts after `un`.
    const from = un ? verb.from - 2 : verb.from - (prefix?.[0].length ?? 0);
    if (!scan.mask.free(from, verb.to)) continue;
    scan.mask.take(from, verb.to);
    const sql = `${ident(verb.column.name)} IS NULL`;
    if (!out.some((c) => c.sql === sql)) out.push({ sql, label: `no ${verb.column.name}` });
  }
  return out;
}

/** `amount over 100`, `more than 3 items`: a numeric column compared with a number. */
export function comparisonConditions(scan: Scan): SqlCondition[] {
  const out: SqlCondition[] = [];
  for (const column of scan.columns) {
    if (!column.numeric) continue;
    for (const alias of column.aliases) {
      const a = alias.replace(/\s+/g, "\\s+");
      const patterns = [
        new RegExp(`\\b${a}\\s+(?:is\\s+|was\\s+|of\\s+)?(${OP_WORDS})\\s*(-?\\d+(?:\\.\\d+)?)`, "g"),
        new RegExp(`(?<![\\p{L}])(${OP_WORDS})\\s*(-?\\d+(?:\\.\\d+)?)\\s+${a}\\b`, "gu"),
      ];
      for (const re of patterns) {
        for (const m of scan.loose.matchAll(re)) {
          const from = m.index ?? 0;
          const to = from + m[0].length;
          const op = operator(m[1]!);
          if (op === undefined || !scan.mask.free(from, to)) continue;
          scan.mask.take(from, to);
          out.push({ sql: `${ident(column.name)} ${op} ${Number(m[2])}`, label: `${column.name} ${op} ${m[2]}` });
        }
      }
    }
  }
  return out;
}

/** `merchant m_73273`, `merchant_id "m_1"`: an identifier-like value right after a column's name. */
export function identifierConditions(scan: Scan): SqlCondition[] {
  const out: SqlCondition[] = [];
  for (const column of scan.columns) {
    if (column.numeric || column.dateLike || column.values.length > 0) continue;
    for (const alias of column.aliases) {
      const a = alias.replace(/\s+/g, "[\\s_-]+");
      const re = new RegExp(`\\b${a}\\s+(?:=\\s*)?(?:'([^']+)'|"([^"]+)"|([\\p{L}\\p{N}][\\w.-]*\\d[\\w.-]*))`, "gu");
      for (const m of scan.text.matchAll(re)) {
        const from = m.index ?? 0;
        const to = from + m[0].length;
        if (!scan.mask.free(from, to)) continue;
        scan.mask.take(from, to);
        const value = (m[1] ?? m[2] ?? m[3] ?? "").replace(/[.,;:!?]+$/, "");
        out.push({
          sql: scan.dialect.equalsIgnoreCase(column.name, literal(value)),
          label: `${column.name} = ${literal(value)}`,
        });
      }
    }
  }
  return out;
}
