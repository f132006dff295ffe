/**
 * Date ranges named in a question: `in March 2026`, `between 2026-04-01 and 2026-06-30`, `Q2 2026`,
 * `first half of 2026`, `in 2026`, `April to June`, `on 5 March 2026`, `since 2026-05-01`, `before May 2026`.
 * Ranges are half-open `[start, end)` ISO dates, so a timestamp on the last day still falls inside.
 */

export interface DateRange {
  /** Inclusive ISO date; absent for an open start (`before ...`). */
  start?: string;
  /** Exclusive ISO date; absent for an open end (`since ...`). */
  end?: string;
  /** Offsets of the phrase in the question (modifier words included). */
  from: number;
  to: number;
}

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const M =
  "(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?";
const Y = "((?:19|20)\\d{2})";
const D = "(\\d{4}-\\d{2}-\\d{2})";
const TO = "\\s*(?:and|to|until|till|through|thru|-|–)\\s*";
const ORDINAL: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  "1st": 1,
  "2nd": 2,
  "3rd": 3,
  "4th": 4,
};

function month(name: string): number {
  return MONTHS.findIndex((m) => m.startsWith(name.replace(".", "").slice(0, 3))) + 1;
}

function iso(year: number, monthNumber: number, day = 1): string {
  return new Date(Date.UTC(year, monthNumber - 1, day)).toISOString().slice(0, 10);
}

/** The ISO date `days` after `date`. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function validIso(date: string): boolean {
  const d = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === date;
}

type Parse = (m: RegExpExecArray, year: (given?: string) => number | undefined) => [string, string] | undefined;

const PATTERNS: [RegExp, Parse][] = [
  [
    new RegExp(`(?:between\\s+|from\\s+)?${D}${TO}${D}`, "g"),
    (m) => (validIso(m[1]!) && validIso(m[2]!) ? [m[1]!, addDays(m[2]!, 1)] : undefined),
  ],
  [
    new RegExp(`(?:between\\s+|from\\s+)?\\b${M}(?:\\s+${Y})?${TO}${M}(?:\\s+${Y})?\\b`, "g"),
    (m, year) => {
      const endYear = year(m[4] ?? m[2]);
      const startYear = m[2] ? Number(m[2]) : endYear;
      if (endYear === undefined || startYear === undefined) return undefined;
      return [iso(startYear, month(m[1]!)), iso(endYear, month(m[3]!) + 1)];
    },
  ],
  [new RegExp(`\\bq([1-4])(?:\\s+(?:of\\s+)?${Y})?\\b`, "g"), (m, year) => quarter(Number(m[1]), year(m[2]))],
  [
    new RegExp(`\\b(first|second|third|fourth|1st|2nd|3rd|4th)\\s+quarter(?:\\s+of)?(?:\\s+${Y})?\\b`, "g"),
    (m, year) => quarter(ORDINAL[m[1]!] ?? 0, year(m[2])),
  ],
  [
    new RegExp(`\\b(?:h([12])|(first|second)\\s+half)(?:\\s+of)?(?:\\s+${Y})?\\b`, "g"),
    (m, year) => {
      const y = year(m[3]);
      const half = m[1] ? Number(m[1]) : m[2] === "first" ? 1 : 2;
      return y === undefined ? undefined : [iso(y, half === 1 ? 1 : 7), iso(y, half === 1 ? 7 : 13)];
    },
  ],
  [new RegExp(`\\b${M}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+${Y}\\b`, "g"), (m) => day(Number(m[3]), m[1]!, m[2]!)],
  [
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${M},?\\s+${Y}\\b`, "g"),
    (m) => day(Number(m[3]), m[2]!, m[1]!),
  ],
  [new RegExp(`\\b${D}\\b`, "g"), (m) => (validIso(m[1]!) ? [m[1]!, addDays(m[1]!, 1)] : undefined)],
  [new RegExp(`\\b${M},?\\s+${Y}\\b`, "g"), (m) => monthRange(Number(m[2]), month(m[1]!))],
  [new RegExp(`\\b${Y}-(\\d{2})\\b(?!-\\d)`, "g"), (m) => monthRange(Number(m[1]), Number(m[2]))],
  [
    // A month alone only after a preposition: "may" is also a verb.
    new RegExp(`(?<=\\b(?:in|during|of|for|since|before|after|until|through)\\s+)${M}\\b`, "g"),
    (m, year) => {
      const y = year();
      return y === undefined ? undefined : monthRange(y, month(m[1]!));
    },
  ],
  [
    // A year alone only after a preposition or "year": "over 2000" is an amount.
    new RegExp(`(?<=\\b(?:in|during|of|for|since|before|after|until|through|from|year)\\s+)${Y}\\b`, "g"),
    (m) => [iso(Number(m[1]), 1), iso(Number(m[1]) + 1, 1)],
  ],
];

function quarter(q: number, year: number | undefined): [string, string] | undefined {
  if (year === undefined || q < 1 || q > 4) return undefined;
  return [iso(year, q * 3 - 2), iso(year, q * 3 + 1)];
}

function monthRange(year: number, m: number): [string, string] | undefined {
  return m >= 1 && m <= 12 ? [iso(year, m), iso(year, m + 1)] : undefined;
}

function day(year: number, monthName: string, dayText: string): [string, string] | undefined {
  const start = iso(year, month(monthName), Number(dayText));
  return start.slice(8) === dayText.padStart(2, "0") ? [start, addDays(start, 1)] : undefined;
}

const OPEN = /\b(on or after|on or before|since|from|after|before|until|till|through|by|up to)\s+$/;

/**
 * Date ranges in `text` (lower case), in order of appearance. A month or quarter without a year takes the
 * year written elsewhere in the question, else `defaultYear` (the data's only year), else is skipped.
 */
export function findDateRanges(text: string, options: { defaultYear?: number } = {}): DateRange[] {
  const written = /\b((?:19|20)\d{2})\b/.exec(text)?.[1];
  const year = (given?: string) =>
    given !== undefined ? Number(given) : written !== undefined ? Number(written) : options.defaultYear;
  const taken: [number, number][] = [];
  const found: DateRange[] = [];
  for (const [pattern, parse] of PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const from = m.index ?? 0;
      const to = from + m[0].length;
      if (taken.some(([a, b]) => from < b && to > a)) continue;
      const range = parse(m as RegExpExecArray, year);
      if (range === undefined) continue;
      taken.push([from, to]);
      found.push(open({ start: range[0], end: range[1], from, to }, text));
    }
  }
  return found.sort((a, b) => a.from - b.from);
}

/** Applies `since`, `after`, `before`, `until` written just before the phrase. */
function open(range: DateRange, text: string): DateRange {
  const before = OPEN.exec(text.slice(Math.max(0, range.from - 16), range.from));
  if (!before) return range;
  const word = before[1]!;
  const from = range.from - before[0].length;
  if (word === "since" || word === "from" || word === "on or after") return { start: range.start, from, to: range.to };
  if (word === "after") return { start: range.end, from, to: range.to };
  if (word === "before") return { end: range.start, from, to: range.to };
  return { end: range.end, from, to: range.to };
}

/** `created_at between 2026-03-01 and 2026-03-31`, `... on or after 2026-05-01`. */
export function describeRange(column: string, range: Pick<DateRange, "start" | "end">): string {
  const last = range.end !== undefined ? addDays(range.end, -1) : undefined;
  if (range.start !== undefined && last !== undefined) {
    return range.start === last ? `${column} on ${last}` : `${column} between ${range.start} and ${last}`;
  }
  if (range.start !== undefined) return `${column} on or after ${range.start}`;
  return `${column} on or before ${last}`;
}
