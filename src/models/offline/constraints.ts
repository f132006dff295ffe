/**
 * The constraints of a question (the years, quarters, months, versions, identifiers, names and numbers it
 * asks about) and how much of them a body of evidence covers. A near miss is evidence about another value
 * of the same kind than asked (2024 asked, only 2025 and 2026 found): the answer would be about something
 * else, so the engine refuses and says what it found instead. All scans are linear in their input.
 */
import { extractEntities, mentions } from "../../text/entities.js";
import { fold, termSet } from "../../text/overlap.js";
import { languageOf } from "./question-cues.js";

export type ConstraintKind = "year" | "quarter" | "month" | "version" | "class" | "identifier" | "name" | "number";

export interface Constraint {
  kind: ConstraintKind;
  /** Normalised value: "2024", "Q1", "M3", "v2", "ir-09", "aerovia cargo", "10". */
  value: string;
  /** As the question writes it. */
  text: string;
}

/** How much each kind counts towards coverage: a period or an identifier names exactly what is asked. */
export const CONSTRAINT_WEIGHT: Record<ConstraintKind, number> = {
  year: 1,
  quarter: 1,
  version: 1,
  class: 1,
  identifier: 1,
  name: 1,
  month: 0.5,
  number: 0.5,
};

/** Kinds whose other values in the evidence make a near miss (evidence about another period or version). */
const EXCLUSIVE: ReadonlySet<ConstraintKind> = new Set(["year", "quarter", "version", "class"]);

/** A lettered class after a lower-case word in a question ("tier D", "Klasse B"); not the pronoun "I". */
const CLASS_ASKED = /(?<![\p{L}\p{N}])(\p{Ll}{3,})\s+(?!I\b)(\p{Lu})(?![\p{L}\p{N}'’-])/gu;
/** A lettered class in evidence, written "tier D", "Tier: D" or "tier-D". */
const CLASS_FOUND = /(?<![\p{L}\p{N}])(\p{L}{3,})[ \t]*[:：-]?[ \t]*(\p{Lu})(?![\p{L}\p{N}'’-])/gu;

/** Lettered classes of a text, by their class word (lower-cased): "tier" -> {A, B}. */
function classesIn(text: string, pattern: RegExp): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const m of text.matchAll(pattern)) {
    const word = m[1]!.toLowerCase();
    const set = out.get(word) ?? new Set<string>();
    set.add(m[2]!);
    out.set(word, set);
  }
  return out;
}

const YEAR = /(?<![\d.,])(?:19|20)\d{2}(?![\d.,]\d)/g;
/** "v2.4", "V3", "2.4.1"; not a path segment ("/v2/refunds"), which names an endpoint, not a version. */
const VERSION = /(?<![\w./])v(\d+(?:\.\d+)*)(?![\w.]*\d|\/)|(?<![\w./])(\d+\.\d+\.\d+)(?![\w.]*\d)/gi;
/** A run of Latin letters in a Chinese or Japanese question: a name ("Tidewater", "Kestrel Fleet"). */
const LATIN_RUN = /[A-Za-z][A-Za-z0-9&'’.-]*(?: [A-Za-z0-9][A-Za-z0-9&'’.-]*)*/g;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN_RUN = /\p{Script=Han}{2,}/gu;
const NUMBER = /(?<![A-Za-z\d_.,:/-])\d+(?:[.,]\d+)?(?![\d_]|[.,]\d|[A-Za-z_-]*\d)/gu;
const ISO_DATE = /(?<!\d)(?:19|20)\d{2}-(\d{2})-\d{2}(?!\d)/g;

/** Quarter cues: "Q1", "1. Quartal", "第1四半期", "第一季度", "first quarter". */
const QUARTER_PATTERNS: [RegExp, (m: RegExpMatchArray) => number][] = [
  [/\bQ([1-4])\b/gi, (m) => Number(m[1])],
  [/\b([1-4])\.\s?Quartal/gi, (m) => Number(m[1])],
  [
    /\b(first|second|third|fourth) quarter\b/gi,
    (m) => ["first", "second", "third", "fourth"].indexOf(m[1]!.toLowerCase()) + 1,
  ],
  [/(?:第)?([1-4１-４一二三四])(?:季度|四半期)/gu, (m) => Math.floor("1１一2２二3３三4４四".indexOf(m[1]!) / 3) + 1],
];

/** Month names of English and German (one table), and the CJK "3月". */
const MONTHS: readonly (readonly string[])[] = [
  ["january", "jan", "januar"],
  ["february", "feb", "februar"],
  ["march", "mar", "märz", "maerz"],
  ["april", "apr"],
  ["may", "mai"],
  ["june", "jun", "juni"],
  ["july", "jul", "juli"],
  ["august", "aug"],
  ["september", "sep", "sept"],
  ["october", "oct", "oktober", "okt"],
  ["november", "nov"],
  ["december", "dec", "dezember", "dez"],
];
const MONTH_OF = new Map<string, number>(MONTHS.flatMap((names, i) => names.map((n) => [n, i + 1] as const)));
const CJK_MONTH = /(?<![\d０-９])(1[0-2]|[1-9])月/gu;

function monthsIn(text: string, strictShort: boolean): Set<number> {
  const out = new Set<number>();
  for (const m of text.matchAll(/\p{L}+/gu)) {
    const word = m[0].toLowerCase();
    const month = MONTH_OF.get(word);
    // "may" and "mar" are also words; in a question only the capitalised form is a month.
    if (month === undefined || (strictShort && word.length <= 3 && !/^\p{Lu}/u.test(m[0]))) continue;
    out.add(month);
  }
  for (const m of text.matchAll(CJK_MONTH)) out.add(Number(m[1]));
  return out;
}

function quartersIn(text: string): Set<number> {
  const out = new Set<number>();
  for (const [re, value] of QUARTER_PATTERNS) for (const m of text.matchAll(re)) out.add(value(m));
  return out;
}

function yearsIn(text: string): Set<string> {
  return new Set([...text.matchAll(YEAR)].map((m) => m[0]));
}

function versionsIn(text: string): Set<string> {
  return new Set([...text.matchAll(VERSION)].map((m) => `v${m[1] ?? m[2]}`.toLowerCase()));
}

/** The constraints a question states, each once, in kind order. */
export function constraintsOf(question: string): Constraint[] {
  const out: Constraint[] = [];
  const seen = new Set<string>();
  const add = (kind: ConstraintKind, value: string, text: string) => {
    const key = `${kind}:${value}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ kind, value, text });
  };
  const years = yearsIn(question);
  for (const y of years) add("year", y, y);
  for (const q of quartersIn(question)) add("quarter", `Q${q}`, `Q${q}`);
  for (const m of monthsIn(question, true)) add("month", `M${m}`, MONTHS[m - 1]![0]!);
  const versions = versionsIn(question);
  for (const v of versions) add("version", v, v);
  for (const [word, letters] of classesIn(question, CLASS_ASKED)) {
    for (const letter of letters) add("class", `${word} ${letter.toLowerCase()}`, `${word} ${letter}`);
  }
  const covered: string[] = [];
  const cjk = CJK_CHAR.test(question);
  if (cjk) {
    for (const m of question.matchAll(LATIN_RUN)) {
      if (m[0].length < 3 || versions.has(m[0].toLowerCase())) continue;
      add("name", m[0].toLowerCase(), m[0]);
      covered.push(m[0]);
    }
    // The qualifier before the first "の" / "的" ("名古屋倉庫の…", "上海仓库的…") names the place or thing asked about.
    const mark = question.search(/[の的]/u);
    const head = mark > 0 ? question.slice(Math.max(0, mark - 12), mark) : "";
    const han = [...head.matchAll(HAN_RUN)].at(-1)?.[0];
    // Not the tail of a date ("2025年第三季度的").
    const before = head.slice(0, head.length - (han?.length ?? 0)).slice(-1);
    if (han && head.endsWith(han) && !/[\d０-９]/.test(before)) add("name", han, han);
  }
  const german = !cjk && languageOf(question) === "de";
  for (const e of cjk ? [] : extractEntities(question)) {
    // German capitalises every noun: a capitalised phrase there is not a name.
    if (e.type === "name" && german) continue;
    if (e.type === "name") {
      if (e.text.length <= 2 || MONTH_OF.has(e.text.toLowerCase()) || /^\d+$/.test(e.text)) continue;
      add("name", e.text.toLowerCase(), e.text);
    } else add("identifier", e.text.toLowerCase(), e.text);
    covered.push(e.text);
  }
  // Numbers that are not a year, a version, or part of an entity already counted.
  const inEntity = (n: string) => covered.some((c) => c.includes(n));
  // Quarter cues hold digits of their own ("2. Quartal", "第3四半期"): those are no numbers asked about.
  let plain = question;
  for (const re of [...QUARTER_PATTERNS.map(([re]) => re), CJK_MONTH])
    plain = plain.replace(re, (m) => " ".repeat(m.length));
  for (const m of plain.matchAll(NUMBER)) {
    const n = m[0].replace(",", ".");
    if (years.has(m[0]) || inEntity(m[0]) || [...versions].some((v) => v.includes(n))) continue;
    add("number", n, m[0]);
  }
  return out;
}

export interface Coverage {
  /** Weighted share of the constraints the evidence covers, 0..1 (1 when there are none). */
  share: number;
  missing: Constraint[];
  /** For a missing year, quarter or version: the values of that kind the evidence holds instead. */
  nearMiss: { constraint: Constraint; found: string[] }[];
}

/** Does the evidence hold this constraint? */
function holds(c: Constraint, text: string, terms: Set<string>, facts: EvidenceFacts): number {
  switch (c.kind) {
    case "year":
      return facts.years.has(c.value) ? 1 : 0;
    case "quarter": {
      const q = Number(c.value.slice(1));
      if (facts.quarters.has(q)) return 1;
      return [...facts.months].some((m) => Math.ceil(m / 3) === q) ? 1 : 0;
    }
    case "month":
      return facts.months.has(Number(c.value.slice(1))) ? 1 : 0;
    case "version":
      return facts.versions.has(c.value) ? 1 : 0;
    case "class": {
      const [word, letter] = c.text.split(" ") as [string, string];
      return facts.classes.get(word)?.has(letter) ? 1 : 0;
    }
    case "identifier":
      return mentions(text, c.text) ? 1 : 0;
    case "name": {
      if (mentions(text, c.text)) return 1;
      // "Aerovia Cargo" named "Aerovia": the share of the name's words the evidence holds.
      const words = [...termSet(c.text)].filter((t) => t.length > 2 || CJK_CHAR.test(t));
      if (words.length === 0) return 0;
      return words.filter((t) => terms.has(fold(t))).length / words.length;
    }
    case "number":
      return facts.numbers.has(c.value) ? 1 : 0;
  }
}

interface EvidenceFacts {
  years: Set<string>;
  quarters: Set<number>;
  months: Set<number>;
  versions: Set<string>;
  classes: Map<string, Set<string>>;
  numbers: Set<string>;
}

function factsOf(text: string): EvidenceFacts {
  const months = monthsIn(text, false);
  for (const m of text.matchAll(ISO_DATE)) months.add(Number(m[1]));
  return {
    years: yearsIn(text),
    quarters: quartersIn(text),
    months,
    versions: versionsIn(text),
    classes: classesIn(text, CLASS_FOUND),
    numbers: new Set([...text.matchAll(NUMBER)].map((m) => m[0].replace(",", "."))),
  };
}

/** How much of the constraints the evidence text covers, what it misses, and near misses. */
export function coverConstraints(constraints: readonly Constraint[], evidence: string): Coverage {
  if (constraints.length === 0) return { share: 1, missing: [], nearMiss: [] };
  const facts = factsOf(evidence);
  const terms = termSet(evidence);
  let total = 0;
  let got = 0;
  const missing: Constraint[] = [];
  const nearMiss: Coverage["nearMiss"] = [];
  const held = constraints.map((c) => holds(c, evidence, terms, facts));
  // A question may name two periods or versions ("v1, and before that v2"): evidence about one is no miss.
  const someHeld = new Set(constraints.filter((_, i) => held[i]! >= 1).map((c) => c.kind));
  for (const [i, c] of constraints.entries()) {
    const weight = CONSTRAINT_WEIGHT[c.kind];
    const have = held[i]!;
    total += weight;
    got += weight * have;
    if (have >= 1) continue;
    missing.push(c);
    if (!EXCLUSIVE.has(c.kind) || someHeld.has(c.kind)) continue;
    const found =
      c.kind === "year"
        ? [...facts.years]
        : c.kind === "quarter"
          ? [...facts.quarters].map((q) => `Q${q}`)
          : c.kind === "class"
            ? [...(facts.classes.get(c.text.split(" ")[0]!) ?? [])].map((l) => `${c.text.split(" ")[0]} ${l}`)
            : [...facts.versions];
    if (found.length > 0) nearMiss.push({ constraint: c, found: found.sort() });
  }
  return { share: total === 0 ? 1 : got / total, missing, nearMiss };
}
