import type { DraftClaim } from "../../spec/engine.js";
import { extractEntities, mentions } from "../../text/entities.js";
import { coverage, fold, termSet } from "../../text/overlap.js";
import { contentTerms, type QuestionPart } from "./analyze.js";
import type { Candidate } from "./candidates.js";
import { NO_WORD, YES_WORD } from "./compare-cues.js";
import { type Lang, languageOf } from "./question-cues.js";

/**
 * Comparisons of two named things that are not one number each: "Are A and B both X?" (each side has the
 * attribute), "Are A and B in the same X?" (the sides share X's value), and "Which came first, A or B?"
 * (each side's date, the earlier or the later wins). Each side is read from the evidence about that side
 * (a passage titled after it, else one naming it), and the outcome cites both sides.
 */

export interface SideEvidence {
  part: QuestionPart;
  /** Every scored unit of the side's evidence, best first. */
  all: Candidate[];
}

/** The units of the evidence about one side: a passage titled after it, else passages that name it. */
export function aboutSide(side: SideEvidence): Candidate[] {
  const name = side.part.alternative ?? "";
  if (!name) return [];
  const titled = side.all.filter((c) => c.title && (mentions(c.title, name) || mentions(name, c.title)));
  if (titled.length > 0) return titled;
  return side.all.filter((c) => mentions(c.passageText, name));
}

/** The side's lead unit: the first unit of its best passage about it (where a reference text says what a thing is). */
function leadOf(units: Candidate[]): Candidate | undefined {
  const best = units[0];
  if (!best) return undefined;
  return units.filter((c) => c.n === best.n).sort((a, b) => a.start - b.start)[0];
}

const MONTH_NUMBER: [RegExp, number][] = [
  [/^jan/i, 1],
  [/^feb/i, 2],
  [/^(?:mar|mär|maer)/i, 3],
  [/^apr/i, 4],
  [/^ma[iy]/i, 5],
  [/^jun/i, 6],
  [/^jul/i, 7],
  [/^aug/i, 8],
  [/^sep/i, 9],
  [/^o[ck]t/i, 10],
  [/^nov/i, 11],
  [/^de[cz]/i, 12],
];
const MONTH = "(?:jan|feb|mar|mär|apr|ma[iy]|jun|jul|aug|sep|o[ck]t|nov|de[cz])[\\p{L}]*\\.?";
/** Date forms, most specific first; each is anchored on a four-digit year (no backtracking across the text). */
const DATE_FORMS: { re: RegExp; y: number; m?: number; d?: number }[] = [
  { re: /\b(\d{4})-(\d{2})-(\d{2})\b/u, y: 1, m: 2, d: 3 },
  { re: /(\d{4})\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*日)?/u, y: 1, m: 2, d: 3 },
  { re: new RegExp(`\\b(\\d{1,2})\\.?\\s(${MONTH})\\s(\\d{4})\\b`, "iu"), y: 3, m: 2, d: 1 },
  { re: new RegExp(`\\b(${MONTH})\\s(\\d{1,2})(?:st|nd|rd|th)?,?\\s(\\d{4})\\b`, "iu"), y: 3, m: 1, d: 2 },
  { re: new RegExp(`\\b(${MONTH})\\s(\\d{4})\\b`, "iu"), y: 2, m: 1 },
  { re: /(?<![\d.,-])(1\d{3}|20\d{2})(?![\d.,]\d)(?:\s*年)?/u, y: 1 },
];

export interface DateValue {
  /** Sortable: year * 10000 + month * 100 + day (0 where not stated). */
  key: number;
  text: string;
  index: number;
}

const monthOf = (s: string) => {
  const n = Number(s);
  if (Number.isInteger(n) && n >= 1 && n <= 12) return n;
  return MONTH_NUMBER.find(([re]) => re.test(s))?.[1] ?? 0;
};

/** The first date a text states (ISO, "14 July 1939", "July 14, 1939", "July 1939", 1939年7月14日, a bare year). */
export function dateIn(text: string): DateValue | undefined {
  let found: DateValue | undefined;
  for (const form of DATE_FORMS) {
    const m = form.re.exec(text);
    if (!m) continue;
    const year = Number(m[form.y]);
    const month = form.m ? monthOf(m[form.m] ?? "") : 0;
    const day = form.d ? Number(m[form.d] ?? 0) || 0 : 0;
    const value = { key: year * 10000 + month * 100 + day, text: m[0].trim(), index: m.index };
    // The earliest-placed date wins; at one place, the more specific form (listed first) does.
    if (!found || value.index < found.index) found = value;
  }
  return found;
}

export interface DatedSide {
  part: QuestionPart;
  unit: Candidate;
  date: DateValue;
}

/**
 * One side's date: in the evidence about the side, the unit holding a date that says most about the
 * compared attribute ("formed", "published"); with nothing said about it, the earliest such unit of the
 * side's best passage (where a reference text gives a birth or founding date).
 */
export function dateSide(side: SideEvidence): DatedSide | undefined {
  const own = aboutSide(side).filter((c) => dateIn(c.quote) !== undefined);
  if (own.length === 0) return undefined;
  const name = termSet(side.part.alternative ?? "");
  const attribute = side.part.terms.filter((t) => !name.has(t));
  const said = (c: Candidate) => coverage(attribute, c.quote);
  const best = Math.max(...own.map(said));
  const pool = best > 0 ? own.filter((c) => said(c) === best) : own;
  const top = pool[0]!;
  const unit = pool.filter((c) => c.n === top.n).sort((a, b) => a.start - b.start)[0] ?? top;
  return { part: side.part, unit, date: dateIn(unit.quote)! };
}

const THEN: Record<Lang, (win: string, lose: string) => string> = {
  en: (w, l) => `${w}, before ${l}.`,
  de: (w, l) => `${w}, vor ${l}.`,
  zh: (w, l) => `${w}，早于${l}。`,
  ja: (w, l) => `${w}。${l}より前です。`,
};
const AFTER: Record<Lang, (win: string, lose: string) => string> = {
  en: (w, l) => `${w}, after ${l}.`,
  de: (w, l) => `${w}, nach ${l}.`,
  zh: (w, l) => `${w}，晚于${l}。`,
  ja: (w, l) => `${w}。${l}より後です。`,
};

/** The outcome of a comparison of dates: the side whose date is earlier (or later) first, both dates cited. */
export function dateComparisonClaim(question: string, sides: DatedSide[]): DraftClaim | undefined {
  if (sides.length !== 2) return undefined;
  const [a, b] = sides as [DatedSide, DatedSide];
  if (a.date.key === b.date.key || !a.part.comparative) return undefined;
  // Compare at the precision both state: a bare year against a full date compares years.
  const precision = (k: number) => (k % 100 !== 0 ? 1 : k % 10000 !== 0 ? 100 : 10000);
  const step = Math.max(precision(a.date.key), precision(b.date.key));
  const ka = Math.floor(a.date.key / step);
  const kb = Math.floor(b.date.key / step);
  if (ka === kb) return undefined;
  const aWins = a.part.comparative === "min" ? ka < kb : ka > kb;
  const [win, lose] = aWins ? [a, b] : [b, a];
  const lang = languageOf(question);
  const say = a.part.comparative === "min" ? THEN[lang] : AFTER[lang];
  return {
    text: say(`${win.part.alternative} (${win.date.text})`, `${lose.part.alternative} (${lose.date.text})`),
    citations: [win, lose].map((s) => ({ n: s.unit.n, quote: s.unit.quote })),
  };
}

/** Where a side's attribute word stands in a unit, and the name nearest to it: "in Jiangsu province" -> Jiangsu. */
function valueNear(unit: string, words: string[], exclude: string): string | undefined {
  const spots: { start: number; end: number }[] = [];
  for (const m of unit.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (words.includes(fold(m[0].toLowerCase()))) spots.push({ start: m.index, end: m.index + m[0].length });
  }
  if (spots.length === 0) return undefined;
  let best: { text: string; distance: number } | undefined;
  for (const e of extractEntities(unit)) {
    if (e.type !== "name" && e.type !== "quoted") continue;
    if (mentions(e.text, exclude) || mentions(exclude, e.text)) continue;
    const end = e.index + e.text.length;
    for (const s of spots) {
      const distance = end <= s.start ? s.start - end : e.index >= s.end ? e.index - s.end : 0;
      if (distance <= 30 && (!best || distance < best.distance)) best = { text: e.text, distance };
    }
  }
  return best?.text;
}

interface SharedRead {
  part: QuestionPart;
  unit: Candidate;
  /** "both X": the share of X's words the side's own passage holds. */
  has?: number;
  /** "the same X": X's value for this side. */
  value?: string;
  /** "the same X": the side's passage, to look the other side's value up in. */
  passage: string;
}

function readShared(side: SideEvidence, attribute: string[], same: string[]): SharedRead | undefined {
  const own = aboutSide(side);
  const lead = leadOf(own);
  if (!lead) return undefined;
  const name = side.part.alternative ?? "";
  if (same.length > 0) {
    const valued = own.map((c) => ({ c, value: valueNear(c.quote, same, name) })).find((x) => x.value !== undefined);
    return { part: side.part, unit: valued?.c ?? lead, value: valued?.value, passage: lead.passageText };
  }
  const inPassage = (c: Candidate) => coverage(attribute, c.passageText);
  const has = Math.max(...own.map(inPassage));
  const unit = [...own].sort((x, y) => coverage(attribute, y.quote) - coverage(attribute, x.quote))[0] ?? lead;
  return { part: side.part, unit, has, passage: lead.passageText };
}

const BOTH_HAVE: Record<Lang, (a: string, b: string, attr: string) => string> = {
  en: (a, b, x) => `${YES_WORD.en}: the evidence describes both ${a} and ${b} as ${x}.`,
  de: (a, b, x) => `${YES_WORD.de}: Die Quellen beschreiben ${a} und ${b} beide als ${x}.`,
  zh: (a, b, x) => `${YES_WORD.zh}：资料显示${a}和${b}都是${x}。`,
  ja: (a, b, x) => `${YES_WORD.ja}。資料では${a}も${b}も${x}です。`,
};
const NOT_BOTH: Record<Lang, (has: string, lacks: string, attr: string) => string> = {
  en: (h, l, x) => `${NO_WORD.en}: the evidence does not describe ${l} as ${x}${h ? `, only ${h}` : ""}.`,
  de: (h, l, x) => `${NO_WORD.de}: Die Quellen beschreiben ${l} nicht als ${x}${h ? `, nur ${h}` : ""}.`,
  zh: (h, l, x) => `${NO_WORD.zh}：资料没有说明${l}是${x}${h ? `，只有${h}是` : ""}。`,
  ja: (h, l, x) => `${NO_WORD.ja}。資料では${l}は${x}とされていません${h ? `（${h}はそうです）` : ""}。`,
};
const SAME_VALUE: Record<Lang, (a: string, b: string, v: string) => string> = {
  en: (a, b, v) => `${YES_WORD.en}: both ${a} and ${b}: ${v}.`,
  de: (a, b, v) => `${YES_WORD.de}: ${a} und ${b} beide: ${v}.`,
  zh: (a, b, v) => `${YES_WORD.zh}：${a}和${b}都是${v}。`,
  ja: (a, b, v) => `${YES_WORD.ja}。${a}も${b}も${v}です。`,
};
const OTHER_VALUE: Record<Lang, (a: string, va: string, b: string, vb: string) => string> = {
  en: (a, va, b, vb) => `${NO_WORD.en}: ${a}: ${va}; ${b}: ${vb}.`,
  de: (a, va, b, vb) => `${NO_WORD.de}: ${a}: ${va}; ${b}: ${vb}.`,
  zh: (a, va, b, vb) => `${NO_WORD.zh}：${a}：${va}；${b}：${vb}。`,
  ja: (a, va, b, vb) => `${NO_WORD.ja}。${a}：${va}、${b}：${vb}。`,
};
const NOT_STATED: Record<Lang, string> = { en: "not stated", de: "nicht angegeben", zh: "未说明", ja: "記載なし" };

/**
 * The yes/no outcome of "Are A and B both X?" or "... the same X?", from each side's own evidence. Both:
 * yes when each side's passage holds every word of X, no when one side's holds more of them than the other's. Same:
 * yes when one side's value of X (the name next to the word X) is stated for the other too, no when the
 * values differ. Undecided (no claim) when a side has no evidence of its own, or no value is found.
 */
export function sharedVerdict(question: string, sides: SideEvidence[]): DraftClaim | undefined {
  if (sides.length !== 2) return undefined;
  const shared = sides[0]!.part.shared;
  if (!shared) return undefined;
  const lang = languageOf(question);
  const names = termSet(`${sides[0]!.part.alternative ?? ""} ${sides[1]!.part.alternative ?? ""}`);
  const attribute = contentTerms(shared.attribute, lang).filter((t) => !names.has(t));
  const reads = sides.map((s) => readShared(s, attribute, shared.same));
  if (reads.some((r) => r === undefined)) return undefined;
  const [a, b] = reads as [SharedRead, SharedRead];
  const an = a.part.alternative ?? "";
  const bn = b.part.alternative ?? "";
  const citations = [a, b].map((r) => ({ n: r.unit.n, quote: r.unit.quote }));
  const attr = shared.attribute.trim();
  if (shared.same.length > 0) {
    if (!a.value && !b.value) return undefined;
    const agree =
      (a.value !== undefined && b.value !== undefined && (mentions(a.value, b.value) || mentions(b.value, a.value))) ||
      (a.value !== undefined && b.value === undefined && mentions(b.passage, a.value)) ||
      (b.value !== undefined && a.value === undefined && mentions(a.passage, b.value));
    if (agree) return { text: SAME_VALUE[lang](an, bn, (a.value ?? b.value)!), citations };
    return {
      text: OTHER_VALUE[lang](an, a.value ?? NOT_STATED[lang], bn, b.value ?? NOT_STATED[lang]),
      citations,
    };
  }
  if (attribute.length === 0) return undefined;
  const ha = a.has ?? 0;
  const hb = b.has ?? 0;
  if (ha === 1 && hb === 1) return { text: BOTH_HAVE[lang](an, bn, attr), citations };
  // Described alike but not in the question's words: undecided. One side described by more of them: no.
  if (ha === hb) return undefined;
  const [has, lacks] = ha > hb ? [an, bn] : [bn, an];
  return { text: NOT_BOTH[lang](has, lacks, attr), citations: ha > hb ? citations : [...citations].reverse() };
}
