/**
 * A number the question states against the ranges a sentence or table row states: "a claim of 9,000 — who signs
 * it off?" is answered by the row "above 5,000 | Regional manager", not by "up to 1,000 | Clerk". A unit whose
 * stated range holds one of the question's amounts fits; one whose ranges all exclude them does not; a unit
 * stating no range says nothing either way. Linear in the text (a few global regular expressions).
 */

/** A range a unit states; a missing bound is open. Bounds count as inside (a question may restate the limit). */
export interface StatedRange {
  min?: number;
  max?: number;
  /** The currency or unit written with the number (`eur`, `kg`, `loads`), folded; absent when none. */
  unit?: string;
}

/** An amount and the currency or unit written with it. */
export interface Amount {
  value: number;
  unit?: string;
}

const CURRENCY = "(eur|usd|gbp|chf|jpy|€|\\$|£|¥)?\\s*";
/** `25,000`, `2,500.01`, `40000`, `3.5`; not part of a date, time, version or identifier. */
const NUMBER = "(?<![\\p{L}\\d.,:/_-])(\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?)(?![\\d]|[-/:.,]\\d)";
const SCALE = "(?:\\s*(k|thousand|million|mio\\.?|m)(?![\\p{L}]))?";
/** The word after a number that says what it counts (`kg`, `tonnes`, `loads`). */
const AFTER = "(?:\\s*(\\p{L}+))?";
const AMOUNT = `${CURRENCY}${NUMBER}${SCALE}${AFTER}`;
/** Groups per AMOUNT: currency, digits, scale, word after. */
const G = 4;

const SIGNS: Record<string, string> = { "€": "eur", $: "usd", "£": "gbp", "¥": "jpy" };
const CURRENCIES = new Set(["eur", "usd", "gbp", "chf", "jpy", "euro", "euros", "dollar", "dollars"]);

/** The unit of an amount: its currency, else the word after it (singular, lower case). */
function unitOf(currency: string | undefined, after: string | undefined): string | undefined {
  if (currency) return SIGNS[currency] ?? currency.toLowerCase();
  const word = after?.toLowerCase();
  if (word === undefined) return undefined;
  if (CURRENCIES.has(word)) return word.startsWith("euro") ? "eur" : word.startsWith("dollar") ? "usd" : word;
  return word.replace(/(?<=\p{L}{3})s$/u, "");
}

const UPPER =
  "up to|upto|under|below|less than|fewer than|at most|not more than|no more than|not exceeding|maximum of|max\\.?|" +
  "bis zu|bis|unter|unterhalb|weniger als|höchstens|≤|<=|<";
const LOWER =
  "above|over|more than|greater than|exceeding|exceeds|in excess of|at least|minimum of|min\\.?|" +
  "über|oberhalb|mehr als|mindestens|ab|≥|>=|>";

const BETWEEN = new RegExp(`\\bbetween\\s+${AMOUNT}\\s+and\\s+${AMOUNT}`, "giu");
const SPAN = new RegExp(`${AMOUNT}\\s*(?:to|–|—|-|bis)\\s*${AMOUNT}`, "giu");
const BELOW = new RegExp(`(?<![\\p{L}])(?:${UPPER})\\s*${AMOUNT}`, "giu");
const ABOVE = new RegExp(`(?<![\\p{L}])(?:${LOWER})\\s*${AMOUNT}`, "giu");
/** Japanese and Chinese: `25,000ユーロ以上`, `1000元以下`. */
const CJK_BOUND = new RegExp(`${NUMBER}\\s*([^\\d\\s]{0,4}?)(以上|超|以下|未満|以内)`, "gu");

function toNumber(digits: string | undefined, scale: string | undefined): number | undefined {
  if (digits === undefined) return undefined;
  const value = Number(digits.replaceAll(",", ""));
  if (!Number.isFinite(value)) return undefined;
  const s = scale?.toLowerCase();
  if (s === "k" || s === "thousand") return value * 1e3;
  if (s === "m" || s === "million" || s?.startsWith("mio")) return value * 1e6;
  return value;
}

/** The ranges `text` states, in any order. */
export function statedRanges(text: string): StatedRange[] {
  const out: StatedRange[] = [];
  const taken: [number, number][] = [];
  const free = (m: RegExpExecArray) => taken.every(([a, b]) => m.index >= b || m.index + m[0].length <= a);
  const take = (m: RegExpExecArray) => taken.push([m.index, m.index + m[0].length]);
  for (const re of [BETWEEN, SPAN]) {
    for (const m of text.matchAll(re)) {
      const a = toNumber(m[2], m[3]);
      const b = toNumber(m[2 + G], m[3 + G]);
      if (a === undefined || b === undefined || !free(m) || a > b) continue;
      take(m);
      const unit = unitOf(m[1 + G] ?? m[1], m[4 + G]);
      out.push(unit === undefined ? { min: a, max: b } : { min: a, max: b, unit });
    }
  }
  for (const [re, side] of [
    [BELOW, "max"],
    [ABOVE, "min"],
  ] as const) {
    for (const m of text.matchAll(re)) {
      const v = toNumber(m[2], m[3]);
      if (v === undefined || !free(m)) continue;
      take(m);
      const unit = unitOf(m[1], m[4]);
      const range: StatedRange = side === "max" ? { max: v } : { min: v };
      out.push(unit === undefined ? range : { ...range, unit });
    }
  }
  for (const m of text.matchAll(CJK_BOUND)) {
    const v = toNumber(m[1], undefined);
    if (v === undefined || !free(m)) continue;
    out.push(m[3] === "以上" || m[3] === "超" ? { min: v } : { max: v });
  }
  return out;
}

/** A four-digit year (1900–2099) written alone: a date, not an amount. */
const YEAR = /^(?:19|20)\d{2}$/;

/** The amounts a question states (`EUR 9,000`, `12 tonnes`, `40k`); years, dates and identifiers are not amounts. */
export function statedAmounts(text: string): Amount[] {
  const out: Amount[] = [];
  for (const m of text.toLowerCase().matchAll(new RegExp(AMOUNT, "giu"))) {
    if (m[1] === undefined && m[3] === undefined && YEAR.test(m[2] ?? "")) continue;
    const value = toNumber(m[2], m[3]);
    const unit = unitOf(m[1], m[4]);
    if (value !== undefined) out.push(unit === undefined ? { value } : { value, unit });
  }
  return out;
}

/** The range holds the amount, and both count the same thing (a range of loads says nothing of euros). */
const holds = (r: StatedRange, a: Amount) =>
  r.unit === a.unit && (r.min === undefined || a.value >= r.min) && (r.max === undefined || a.value <= r.max);
/** The range is of the amount's unit (so it can hold or exclude it). */
const sameUnit = (r: StatedRange, a: Amount) => r.unit === a.unit;

/**
 * 1 when a range `text` states holds one of `amounts`, -1 when it states ranges and none holds any, 0 when it
 * states none (or there are no amounts).
 */
export function rangeFit(amounts: readonly Amount[], text: string): -1 | 0 | 1 {
  if (amounts.length === 0) return 0;
  const ranges = statedRanges(text.toLowerCase()).filter((r) => amounts.some((a) => sameUnit(r, a)));
  if (ranges.length === 0) return 0;
  return ranges.some((r) => amounts.some((a) => holds(r, a))) ? 1 : -1;
}
