/**
 * Date ranges named in a question: `in March 2026`, `between 2025-09-01 and 2025-11-30`, `Q2 2026`,
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

/** Month names and abbreviations, English and German, lower case. */
const MONTH_NAMES: Record<string, number> = {
  january: 1,
  jan: 1,
  januar: 1,
  jänner: 1,
  february: 2,
  feb: 2,
  februar: 2,
  march: 3,
  mar: 3,
  märz: 3,
  maerz: 3,
  mär: 3,
  april: 4,
  apr: 4,
  may: 5,
  mai: 5,
  june: 6,
  jun: 6,
  juni: 6,
  july: 7,
  jul: 7,
  juli: 7,
  august: 8,
  aug: 8,
  september: 9,
  sept: 9,
  sep: 9,
  october: 10,
  oct: 10,
  oktober: 10,
  okt: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
  dezember: 12,
  dez: 12,
};
const M = `(${Object.keys(MONTH_NAMES)
  .sort((a, b) => b.length - a.length)
  .join("|")})\\.?`;
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
  erste: 1,
  ersten: 1,
  zweite: 2,
  zweiten: 2,
  dritte: 3,
  dritten: 3,
  vierte: 4,
  vierten: 4,
  "1.": 1,
  "2.": 2,
  "3.": 3,
  "4.": 4,
  一: 1,
  二: 2,
  三: 3,
  四: 4,
  "1": 1,
  "2": 2,
  "3": 3,
  "4": 4,
};
const ORD =
  "(first|second|third|fourth|1st|2nd|3rd|4th|ersten|erste|zweiten|zweite|dritten|dritte|vierten|vierte|[1-4]\\.)";

function month(name: string): number {
  return MONTH_NAMES[name.replace(".", "")] ?? 0;
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
  [
    // `between 3 and 9 October 2025`, `3-9 October 2025`
    new RegExp(
      `(?:between\\s+|from\\s+)?\\b(\\d{1,2})(?:st|nd|rd|th|\\.)?${TO}(\\d{1,2})(?:st|nd|rd|th|\\.)?\\s+(?:of\\s+)?${M},?\\s+${Y}\\b`,
      "g",
    ),
    (m) => dayRange(Number(m[4]), m[3]!, m[1]!, m[2]!),
  ],
  [
    // `April 13 to 17, 2026`
    new RegExp(
      `(?:between\\s+|from\\s+)?\\b${M}\\s+(\\d{1,2})(?:st|nd|rd|th)?${TO}(\\d{1,2})(?:st|nd|rd|th)?,?\\s+${Y}\\b`,
      "g",
    ),
    (m) => dayRange(Number(m[4]), m[1]!, m[2]!, m[3]!),
  ],
  // Japanese and Chinese: 2026年4月, 4月, 2026年第2四半期, 第2季度, 上半期, 2026年
  [/((?:19|20)\d{2})\s*年\s*(\d{1,2})\s*月/g, (m) => monthRange(Number(m[1]), Number(m[2]))],
  [
    /(?:((?:19|20)\d{2})\s*年\s*(?:の)?)?第\s*([1-4一二三四])\s*(?:四半期|季度)/g,
    (m, year) => quarter(ORDINAL[m[2]!] ?? 0, year(m[1])),
  ],
  [/(?:((?:19|20)\d{2})\s*年\s*(?:の|度)?)?(上|下)半(?:期|年)/g, (m, year) => half(m[2] === "上" ? 1 : 2, year(m[1]))],
  [
    /(?<![\d年])(\d{1,2})\s*月(?!\s*\d+\s*日)/g,
    (m, year) => {
      const y = year();
      return y === undefined ? undefined : monthRange(y, Number(m[1]));
    },
  ],
  [/((?:19|20)\d{2})\s*年(?!\s*\d)/g, (m) => [iso(Number(m[1]), 1), iso(Number(m[1]) + 1, 1)]],
  [new RegExp(`\\bq([1-4])(?:\\s+(?:of\\s+)?${Y})?\\b`, "g"), (m, year) => quarter(Number(m[1]), year(m[2]))],
  [new RegExp(`\\b${ORD}\\s+quartals?(?:\\s+${Y})?`, "g"), (m, year) => quarter(ORDINAL[m[1]!] ?? 0, year(m[2]))],
  [new RegExp(`\\b${ORD}\\s+halbjahr(?:es)?(?:\\s+${Y})?`, "g"), (m, year) => half(ORDINAL[m[1]!] ?? 0, year(m[2]))],
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
    new RegExp(`(?<=\\b(?:in|during|of|for|since|before|after|until|through|im|seit|vor|nach|bis)\\s+)${M}\\b`, "g"),
    (m, year) => {
      const y = year();
      return y === undefined ? undefined : monthRange(y, month(m[1]!));
    },
  ],
  [
    // A year alone only after a preposition or "year": "over 2000" is an amount.
    new RegExp(
      `(?<=\\b(?:in|during|of|for|since|before|after|until|through|from|year|im|jahr|seit|vor|nach|bis)\\s+)${Y}\\b`,
      "g",
    ),
    (m) => [iso(Number(m[1]), 1), iso(Number(m[1]) + 1, 1)],
  ],
];

function quarter(q: number, year: number | undefined): [string, string] | undefined {
  if (year === undefined || q < 1 || q > 4) return undefined;
  return [iso(year, q * 3 - 2), iso(year, q * 3 + 1)];
}

function half(h: number, year: number | undefined): [string, string] | undefined {
  if (year === undefined || h < 1 || h > 2) return undefined;
  return [iso(year, h === 1 ? 1 : 7), iso(year, h === 1 ? 7 : 13)];
}

function dayRange(year: number, monthName: string, first: string, last: string): [string, string] | undefined {
  const a = day(year, monthName, first);
  const b = day(year, monthName, last);
  return a && b && a[0] <= b[0] ? [a[0], b[1]] : undefined;
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
export function findDateRanges(text: string, options: FindDateRangesOptions = {}): DateRange[] {
  const written = /\b((?:19|20)\d{2})\b/.exec(text)?.[1];
  const fallback = options.defaultYear ?? (options.latest ? Number(options.latest.slice(0, 4)) : undefined);
  const year = (given?: string) =>
    given !== undefined ? Number(given) : written !== undefined ? Number(written) : fallback;
  const taken: [number, number][] = [];
  const found: DateRange[] = [];
  const latest = options.latest?.slice(0, 10);
  const relative: [RegExp, Parse][] =
    latest !== undefined && validIso(latest)
      ? RELATIVE.map(([re, window]) => [re, (m) => window(m, latest)] as [RegExp, Parse])
      : [];
  for (const [pattern, parse] of [...relative, ...PATTERNS]) {
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

export interface FindDateRangesOptions {
  /** The year of a month or quarter named without one (the data's only year). */
  defaultYear?: number;
  /**
   * The data's latest date (`MAX` of the date column): `last month`, `this quarter`, `past 30 days` are counted
   * back from it, not from today, and a month without a year falls in its year.
   */
  latest?: string;
}

type Window = (m: RegExpExecArray, latest: string) => [string, string] | undefined;

const UNIT: Record<string, "day" | "week" | "month" | "quarter" | "half" | "year"> = {
  day: "day",
  days: "day",
  tag: "day",
  tage: "day",
  tagen: "day",
  日: "day",
  天: "day",
  week: "week",
  weeks: "week",
  woche: "week",
  wochen: "week",
  週間: "week",
  周: "week",
  month: "month",
  months: "month",
  monat: "month",
  monate: "month",
  monaten: "month",
  か月: "month",
  ヶ月: "month",
  个月: "month",
  quarter: "quarter",
  quartal: "quarter",
  四半期: "quarter",
  季度: "quarter",
  half: "half",
  "half-year": "half",
  "half year": "half",
  halbjahr: "half",
  半期: "half",
  year: "year",
  jahr: "year",
  年: "year",
};

/** The last `n` units up to and including `latest`. */
function trailing(latest: string, n: number, unit: string): [string, string] | undefined {
  const end = addDays(latest, 1);
  const u = UNIT[unit];
  if (u === undefined || !(n > 0) || n > 3660) return undefined;
  if (u === "day" || u === "week") return [addDays(end, -n * (u === "week" ? 7 : 1)), end];
  const months = n * (u === "month" ? 1 : u === "quarter" ? 3 : u === "half" ? 6 : 12);
  const d = new Date(`${end}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - months);
  return [d.toISOString().slice(0, 10), end];
}

/** The calendar month, quarter or year holding `latest` (`back` = 0) or the one before it (`back` = 1). */
function calendar(latest: string, unit: string, back: number): [string, string] | undefined {
  const y = Number(latest.slice(0, 4));
  const m = Number(latest.slice(5, 7));
  const u = UNIT[unit];
  if (u === "month") return [iso(y, m - back), iso(y, m - back + 1)];
  if (u === "quarter") {
    const q = Math.floor((m - 1) / 3) - back;
    return [iso(y, q * 3 + 1), iso(y, q * 3 + 4)];
  }
  if (u === "half") {
    const h = Math.floor((m - 1) / 6) - back;
    return [iso(y, h * 6 + 1), iso(y, h * 6 + 7)];
  }
  if (u === "year") return [iso(y - back, 1), iso(y - back + 1, 1)];
  if (u === "week") {
    // Weeks start on Monday: "last week" is the Monday-to-Sunday week before the one holding `latest`.
    const weekday = (new Date(`${latest}T00:00:00Z`).getUTCDay() + 6) % 7;
    const monday = addDays(latest, -weekday - 7 * back);
    return [monday, addDays(monday, 7)];
  }
  if (u === "day") return [addDays(latest, -back), addDays(latest, 1 - back)];
  return undefined;
}

/** A half of the year: `half-year`, `half year`, `half`, `Halbjahr(es)`. */
const HALF = "half[- ]year|half|halbjahr(?:es)?";
const unitOf = (word: string) => (/^(?:half|halbjahr)/.test(word) ? "half" : word);
const LAST = "(?:last|past|previous|prior|preceding|letzte[nmrs]?|vergangene[nmrs]?|vorige[nmrs]?|vorherige[nmrs]?)";
const THIS = "(?:this|current|the current|diese[nmrs]?|laufende[nmrs]?|aktuelle[nmrs]?)";
const RELATIVE: [RegExp, Window][] = [
  [
    new RegExp(
      `\\b${LAST}\\s+(\\d{1,4})\\s+(days?|weeks?|months?|quarters?|years?|tagen?|wochen?|monate?n?|quartale?|jahre?)\\b`,
      "g",
    ),
    (m, l) =>
      trailing(
        l,
        Number(m[1]),
        (m[2] ?? "")
          .replace(/^(quarter|year)s$/, "$1")
          .replace(/^quartale$/, "quartal")
          .replace(/^jahre$/, "jahr"),
      ),
  ],
  [
    new RegExp(`\\b${LAST}\\s+(${HALF}|month|quarter|year|week|monat|quartal|jahr|woche)\\b`, "g"),
    (m, l) => calendar(l, unitOf(m[1]!), 1),
  ],
  [
    new RegExp(`\\b${THIS}\\s+(${HALF}|month|quarter|year|week|monat|quartal|jahr|woche)\\b`, "g"),
    (m, l) => calendar(l, unitOf(m[1]!), 0),
  ],
  [
    /(?:直近|過去|最近|过去)\s*(\d{1,4})\s*(日|週間|か月|ヶ月|年|天|周|个月)/g,
    (m, l) => trailing(l, Number(m[1]), m[2]!),
  ],
  [/\b(?:year to date|ytd|so far this year|bisher in diesem jahr)\b/g, (_m, l) => calendar(l, "year", 0)],
  [/\b(?:yesterday|gestern)\b/g, (_m, l) => calendar(l, "day", 1)],
  [/先週|上周|上星期|上个星期/g, (_m, l) => calendar(l, "week", 1)],
  [/今週|本周|这周|这个星期/g, (_m, l) => calendar(l, "week", 0)],
  [/先月|前月|上个月|上月/g, (_m, l) => calendar(l, "month", 1)],
  [/今月|本月|这个月/g, (_m, l) => calendar(l, "month", 0)],
  [/前四半期|上季度|上个季度/g, (_m, l) => calendar(l, "quarter", 1)],
  [/今四半期|本季度/g, (_m, l) => calendar(l, "quarter", 0)],
  [/今半期|本半年/g, (_m, l) => calendar(l, "half", 0)],
  [/昨年|去年|前年度|昨年度/g, (_m, l) => calendar(l, "year", 1)],
  [/今年|本年|今年度/g, (_m, l) => calendar(l, "year", 0)],
];

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
