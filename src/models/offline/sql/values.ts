import { findPhrase, type Hit } from "./mask.js";
import { placeAliases } from "./places.js";
import { loosen, plural } from "./profile.js";
import type { Scan } from "./scan.js";
import { ident, literal } from "./sql-text.js";
import type { ColumnProfile, SqlCondition } from "./types.js";

/** A value written as a short upper-case code (`IT`, `NO`, `HAM`) is matched only as written: `it` is a pronoun. */
const CODE = /^[A-Z][A-Z0-9]{1,3}$/;
/** Values longer than this many words are free text: matched whole, never by one of their words. */
const SHORT_VALUE_WORDS = 3;
const NEGATION = /(?:^|[^\p{L}])(?:not|non|excluding|except|other than|besides|nicht|kein|keine|ohne|außer)[\s-]+$/u;
const TRUE_VALUES = new Set(["yes", "true", "y", "ja", "1"]);

/** One way the question may name a column value. */
interface ValuePhrase {
  column: ColumnProfile;
  value: string;
  phrase: string;
  /** Match in the question as written (upper-case codes), not lower-cased. */
  exact: boolean;
}

/** Words that occur in more than one value of a column do not pick one value. */
function distinctiveWords(column: ColumnProfile): Map<string, string> {
  const owners = new Map<string, Set<string>>();
  for (const value of column.values) {
    const words = loosen(value).split(/\s+/).filter(Boolean);
    if (words.length < 2 || words.length > SHORT_VALUE_WORDS) continue;
    for (const word of words) {
      if (word.length < 4 || !/^\p{L}+$/u.test(word)) continue;
      owners.set(word, (owners.get(word) ?? new Set()).add(value));
    }
  }
  const out = new Map<string, string>();
  for (const [word, values] of owners) if (values.size === 1) out.set(word, [...values][0]!);
  // A word that also names a value whole (`cargo` as a value) is that value, not a part of another.
  for (const value of column.values) out.delete(loosen(value).trim());
  return out;
}

/** Every phrase that names a value of a text column: itself, its plural, its place names or code, a distinctive word. */
export function valuePhrases(columns: readonly ColumnProfile[], exclude: readonly string[]): ValuePhrase[] {
  const out: ValuePhrase[] = [];
  for (const column of columns) {
    if (column.numeric || column.dateLike || column.boolean) continue;
    for (const value of column.values) {
      if (!/\p{L}/u.test(value) || value.trim().length < 2) continue;
      const loose = loosen(value).trim();
      if (exclude.includes(loose)) continue;
      const add = (phrase: string, exact = false) => out.push({ column, value, phrase, exact });
      if (CODE.test(value)) add(value, true);
      else {
        add(loose);
        if (/^\p{L}+$/u.test(loose) && loose.length >= 3) add(plural(loose));
      }
      const place = placeAliases(value);
      for (const name of place.names) add(name);
      for (const code of place.codes) if (code !== value) add(code, true);
    }
    for (const [word, value] of distinctiveWords(column)) out.push({ column, value, phrase: word, exact: false });
  }
  // Longer phrases first: `in transit` before `transit`; then full values before their words.
  return out.sort((a, b) => b.phrase.length - a.phrase.length);
}

interface ValueHit extends Hit {
  column: ColumnProfile;
  value: string;
  negated: boolean;
}

/**
 * Column values the question names (`sev2`, `open or in_progress`, `Poland` for `PL`, `Tidewater` for
 * `Tidewater Line`): one condition per column, `=` for one value and `IN` for several; `not X` or `excluding X`
 * makes it `NOT IN`.
 */
export function valueConditions(scan: Scan, nouns: readonly string[]): SqlCondition[] {
  const hits: ValueHit[] = [];
  for (const p of valuePhrases(scan.columns, nouns)) {
    const found = p.exact ? findPhrase(scan.original, p.phrase) : findPhrase(scan.loose, loosen(p.phrase));
    for (const hit of found) {
      if (!scan.mask.free(hit.from, hit.to)) continue;
      const negation = NEGATION.exec(scan.loose.slice(Math.max(0, hit.from - 14), hit.from));
      const from = negation ? hit.from - negation[0].replace(/^[^\p{L}]/u, "").length : hit.from;
      scan.mask.take(from, hit.to);
      hits.push({ column: p.column, value: p.value, negated: negation !== null, from, to: hit.to });
    }
  }
  const out: SqlCondition[] = [];
  for (const column of scan.columns) {
    for (const negated of [false, true]) {
      const mine = hits.filter((h) => h.column === column && h.negated === negated);
      const values = [...new Set(mine.map((h) => h.value))];
      if (values.length === 0) continue;
      const at = Math.min(...mine.map((h) => h.from));
      const name = ident(column.name);
      const list = values.map(literal).join(", ");
      const sql =
        values.length === 1
          ? `${name} ${negated ? "<>" : "="} ${list}`
          : `${name} ${negated ? "NOT IN" : "IN"} (${list})`;
      const label =
        values.length === 1
          ? `${column.name} ${negated ? "<>" : "="} ${list}`
          : `${column.name} ${negated ? "not in" : "in"} (${list})`;
      out.push({ sql, label, at, ...(negated ? {} : { list: { column: column.name, size: values.length } }) });
    }
  }
  return out;
}

/** Edit distance of two short words, stopping past 1 (typos: `hazardus`). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const restA = a.slice(i);
  const restB = b.slice(i);
  return (
    restA.slice(1) === restB.slice(1) || // substitution
    restA.slice(1) === restB || // deletion from a
    restA === restB.slice(1) || // insertion into a
    (restA.length >= 2 && restA[0] === restB[1] && restA[1] === restB[0] && restA.slice(2) === restB.slice(2))
  );
}

/** Where the question names a column, allowing one typo in names of 6 letters or more. */
export function columnMentions(scan: Scan, column: ColumnProfile): Hit[] {
  const visible = scan.mask.visible(scan.loose);
  const hits = column.aliases.flatMap((a) => findPhrase(visible, a));
  if (hits.length > 0) return hits;
  const single = column.aliases.filter((a) => /^\p{L}{6,}$/u.test(a));
  for (const m of visible.matchAll(/\p{L}{5,}/gu)) {
    if (single.some((a) => withinOneEdit(m[0], a))) hits.push({ from: m.index, to: m.index + m[0].length });
  }
  return hits;
}

/** `hazardous shipments`, `non-hazardous`: a yes/no column named by the question is a condition on its value. */
export function booleanConditions(scan: Scan): SqlCondition[] {
  const out: SqlCondition[] = [];
  for (const column of scan.columns) {
    if (!column.boolean) continue;
    const yes = column.values.find((v) => TRUE_VALUES.has(v.toLowerCase()));
    const no = column.values.find((v) => !TRUE_VALUES.has(v.toLowerCase()));
    for (const hit of columnMentions(scan, column)) {
      if (!scan.mask.free(hit.from, hit.to)) continue;
      const negation = NEGATION.exec(scan.loose.slice(Math.max(0, hit.from - 14), hit.from));
      const value = negation ? no : yes;
      if (value === undefined) continue;
      scan.mask.take(negation ? hit.from - negation[0].replace(/^[^\p{L}]/u, "").length : hit.from, hit.to);
      const condition = {
        sql: `${ident(column.name)} = ${literal(value)}`,
        label: `${column.name} = ${literal(value)}`,
        at: hit.from,
      };
      if (!out.some((c) => c.sql === condition.sql)) out.push(condition);
    }
  }
  return out;
}
