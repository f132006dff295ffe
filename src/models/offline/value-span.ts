import { fold, labelTerms, termSet } from "../../text/overlap.js";
import type { AnswerType } from "./analyze.js";
import { isTableRow, selfLabelled } from "./evidence-view.js";

/** The span of a unit that answers the question: a number with its unit, a date, a name, or a field's value. */
export interface ValueSpan {
  text: string;
  /** Offsets in the unit's text. */
  start: number;
  end: number;
  /** Read from a field whose label names what was asked ("Team lead: Dana Okafor" for "who leads"). */
  labelled?: boolean;
}

/** Time units per language: a number followed by one of these is a duration. */
const TIME_UNITS = [
  "ms milliseconds millisecond s sec secs second seconds min mins minute minutes h hr hrs hour hours day days " +
    "week weeks month months year years business working",
  "sekunde sekunden minute minuten stunde stunden tag tage tagen werktag werktage werktagen woche wochen monat monate monaten jahr jahre jahren",
  "秒 分 分钟 分鐘 小时 小時 時間 天 日 日間 周 週 週間 星期 个月 個月 か月 ヶ月 カ月 月 年",
].flatMap((line) => line.split(" "));
const TIME_UNIT = new Set(TIME_UNITS);

/** Words that never name a number's unit (it ends at them). */
const NOT_UNIT = new Set(
  (
    "a an and or the of to in on at for from by with after before than as is are was were be been it its this that " +
    "if per up down over under about into via und oder der die das den dem des ein eine zu im am für mit von bei nach vor als ist sind"
  ).split(" "),
);

const MONTHS =
  "jan(?:uary|uar)?|feb(?:ruary|ruar)?|m(?:ar(?:ch)?|ärz|aerz)|apr(?:il)?|ma[iy]|jun[ei]?|jul[iy]?|aug(?:ust)?|sep(?:t(?:ember)?)?|o[ck]t(?:ober)?|nov(?:ember)?|de[cz](?:ember)?";
const WEEKDAYS =
  "(?:mon|tues|wednes|thurs|fri|satur|sun)days?|montags?|dienstags?|mittwochs?|donnerstags?|freitags?|samstags?|sonntags?";
const TIME = "\\d{1,2}:\\d{2}(?:\\s?(?:am|pm|uhr))?(?:\\s(?:UTC|GMT|CET|CEST|JST|[A-Z][a-z]+ Time))?";

/** Date forms, most specific first: ISO, dotted European, "12 May 2026", "May 12, 2026", 2026年5月12日, weekday at time. */
const DATE_PATTERNS: RegExp[] = [
  /\b\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?(?:Z|\s?UTC)?)?/g,
  /\b\d{1,2}\.\s?\d{1,2}\.\s?\d{4}\b/g,
  new RegExp(`\\b\\d{1,2}\\.?\\s(?:${MONTHS})\\.?\\s\\d{4}\\b`, "giu"),
  new RegExp(`\\b(?:${MONTHS})\\.?\\s\\d{1,2}(?:st|nd|rd|th)?,?\\s\\d{4}\\b`, "giu"),
  /\d{4}年\d{1,2}月(?:\d{1,2}日)?/g,
  new RegExp(`\\b(?:${WEEKDAYS})\\b(?:,?\\s(?:(?:at|um|ab)\\s)?${TIME})?`, "giu"),
  new RegExp(`\\b(?:${MONTHS})\\.?\\s\\d{4}\\b`, "giu"),
  new RegExp(`\\b${TIME}`, "gu"),
  /\b(?:19|20)\d{2}\b/g,
];

/** A standalone number (not the digits of an identifier such as SEV1 or INC-2026-014), with an optional range. */
const NUMBER =
  /(?:(?:[$€£¥]|\b(?:EUR|USD|GBP|JPY|CHF|SDR)\s?)\s?)?(?<![\p{L}\d_.-])\d+(?:[.,]\d+)*(?:\s?(?:-|–|to|bis|至|〜|~)\s?\d+(?:[.,]\d+)*)?(?![\p{L}_-]*\d)(?:\s?[%‰])?/gu;
const NAME = /\b\p{Lu}\p{Ll}+(?:[ -](?:van |von |de |da )?\p{Lu}[\p{Ll}'’-]+)+/gu;
/** Last words that make a capitalised phrase an organisation, place or thing rather than a person. */
const NOT_PERSON =
  /\b(?:team|service|gateway|scheduler|station|stand|store|inc|ltd|llc|gmbh|ag|company|corp|group|department|university|college|school|project|api|policy|bank|committee|council|agency|office|center|centre|river|city|county|state|street|airport|band|records|league|club|system|platform|engine|desk|queue|dashboard|express|cargo|line|road|rail|freight|brokers?|customs|port|hub|site|time)s?$/i;

interface Match {
  start: number;
  end: number;
}

function all(re: RegExp, text: string): Match[] {
  const out: Match[] = [];
  for (const m of text.matchAll(re)) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

/** Extends a number to its unit: "45 seconds", "20 requests per second", "3.7 米", "26 SDR per kg". */
function withUnit(text: string, m: Match): Match & { unit: string } {
  let end = m.end;
  let unit = "";
  const rest = text.slice(end, end + 60);
  const cjk = /^\s?([\p{Script=Han}\p{Script=Katakana}ヶか]{1,3})/u.exec(rest);
  // A unit word ends the number's phrase: not the start of an identifier ("429 rate_limited").
  const word = /^\s?([\p{L}][\p{L}/]*)(?![\p{L}\d_-])/u.exec(rest);
  if (cjk) {
    // A CJK unit is the longest known time unit the run starts with, else its first character (3.7 米的 -> 米).
    const chars = cjk[1]!.replace(/[的了是在和与及或].*$/u, "");
    const run = [3, 2, 1].map((n) => chars.slice(0, n)).find((u) => TIME_UNIT.has(u)) ?? chars.slice(0, 1);
    if (run) {
      unit = run;
      end += cjk[0].indexOf(run) + run.length;
    }
  } else if (word && !NOT_UNIT.has(word[1]!.toLowerCase()) && word[1]!.length <= 15) {
    unit = word[1]!;
    end += word[0].length;
    // "business days", "requests per second", "SDR per kg", "Euro pro Tag".
    const more = /^\s(?:(days|tage)|(?:per|pro|a|je)\s([\p{L}]+))/iu.exec(text.slice(end, end + 30));
    if (more && (more[1] || (more[2] && !NOT_UNIT.has(more[2].toLowerCase())))) end += more[0].length;
    if (more?.[1]) unit = more[1];
  }
  return { start: m.start, end, unit: unit.toLowerCase() };
}

function numbers(text: string): (Match & { unit: string })[] {
  return all(NUMBER, text)
    .map((m) => withUnit(text, m))
    .filter((m) => !/^(?:19|20)\d{2}$/.test(text.slice(m.start, m.end).trim()));
}

function dates(text: string): Match[] {
  const out: Match[] = [];
  for (const re of DATE_PATTERNS) {
    for (const m of all(re, text)) if (!out.some((o) => m.start < o.end && o.start < m.end)) out.push(m);
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Words that make a capitalised phrase a title ("You Don't Love Me") rather than a name. */
const NOT_IN_NAME = new Set("the of a an and or you me my your our in on for to at by with is are was not".split(" "));

function persons(text: string, known: string): Match[] {
  const lowerKnown = known.toLowerCase();
  return all(NAME, text).filter((m) => {
    const name = text.slice(m.start, m.end);
    const words = name.split(/[ -]/).map((w) => w.toLowerCase());
    return (
      name.includes(" ") && !NOT_PERSON.test(name) && !words.some((w) => NOT_IN_NAME.has(w) || lowerKnown.includes(w))
    );
  });
}

/** Spans of the asked kind in a text, in order. `fact` and `entity` have no typed span. */
export function typedSpans(text: string, kind: AnswerType, known = ""): Match[] {
  switch (kind) {
    case "number":
      return numbers(text);
    case "duration":
      return numbers(text).filter((m) => TIME_UNIT.has(m.unit));
    case "date":
      return dates(text);
    case "person":
      return persons(text, known);
    default:
      return [];
  }
}

/** A labelled field of a unit: "Team lead: Dana Okafor", or a table cell with its column header. */
interface Field {
  label: string;
  start: number;
  end: number;
}

const cellsOf = (line: string): Match[] => {
  const out: Match[] = [];
  let at = 0;
  for (const cell of line.split("|")) {
    const lead = cell.length - cell.trimStart().length;
    if (cell.trim()) out.push({ start: at + lead, end: at + lead + cell.trim().length });
    at += cell.length + 1;
  }
  return out;
};

/** The labelled fields of a unit: a table row's cells under their headers, or "label: value" lines. */
export function fieldsOf(text: string, header?: string[], options: { labelledCells?: boolean } = {}): Field[] {
  if (isTableRow(text)) {
    const cells = cellsOf(text);
    // A filing's row carries its headers in its cells ("Net sales | Year ended 2024: 4,210 | 2023: 3,980"):
    // each cell after the label is a field under the header before its colon.
    if (options.labelledCells && !header && !text.trimStart().startsWith("|") && selfLabelled(text)) {
      return cells.slice(1).map((c) => {
        const cell = text.slice(c.start, c.end);
        const colon = cell.lastIndexOf(": ");
        return { label: cell.slice(0, colon), start: c.start + colon + 2, end: c.end };
      });
    }
    // A two-column "| Limit | Value |" row: the first cell labels the second (whatever the header says).
    if (cells.length === 2) {
      const label = `${text.slice(cells[0]!.start, cells[0]!.end)} ${header?.[1] ?? ""}`.trim();
      return [{ label, ...cells[1]! }];
    }
    if (header && header.length === cells.length) {
      return cells.map((c, i) => ({ label: header[i]!, ...c }));
    }
    return [];
  }
  const m = /^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*)?([^:\n]{1,60}?)(?:\*\*)?:\s+(\S.*)$/u.exec(text);
  if (!m) return [];
  const start = text.length - m[2]!.length;
  return [{ label: m[1]!, start, end: text.trimEnd().length }];
}

/** How many of the asked terms a text holds. */
function hits(asked: string[], text: string, label = false): number {
  const have = label ? labelTerms(text) : termSet(text);
  return asked.filter((t) => have.has(fold(t))).length;
}

/**
 * The value span of a unit for the asked kind. A labelled field whose label holds the most asked terms
 * answers first (the typed span inside it, or the whole value for a name or a fact); otherwise the typed
 * span nearest to the asked terms; a name or fact question without a labelled field has no span (the
 * sentence is the answer). `known` is the question: names it already holds are not answers to "who".
 */
export function valueSpan(
  text: string,
  kind: AnswerType,
  options: { known?: string; asked?: string[]; header?: string[]; labelledCells?: boolean } = {},
): ValueSpan | undefined {
  const known = options.known ?? "";
  const asked = (options.asked ?? []).map(fold);
  const span = (m: Match): ValueSpan => ({
    text: text
      .slice(m.start, m.end)
      .replace(/\*\*|`/g, "")
      .trim(),
    ...m,
  });
  const fields = fieldsOf(text, options.header, { labelledCells: options.labelledCells });
  if (fields.length > 0 && kind !== "yesno") {
    const scored = fields
      .map((f) => ({ f, score: hits(asked, f.label, true) }))
      .filter(({ f }) => !/^[\s\d.,]*$/.test(text.slice(f.start, f.end)) || kind === "number" || kind === "duration");
    const best = scored.sort((a, b) => b.score - a.score)[0];
    // A table row whose other cells name what is asked ("| API request logs | 400 days |" under Data, Retention)
    // labels its one cell of the asked kind.
    if (
      best &&
      best.score === 0 &&
      fields.length > 1 &&
      kind !== "fact" &&
      kind !== "entity" &&
      hits(asked, text) > 0
    ) {
      const typedCells = fields.filter((f) => typedSpans(text.slice(f.start, f.end), kind, known).length > 0);
      const cell = typedCells.length === 1 ? typedCells[0]! : undefined;
      const inner = cell ? typedSpans(text.slice(cell.start, cell.end), kind, known)[0] : undefined;
      if (cell && inner && hits(asked, text) >= Math.ceil(asked.length / 2))
        return { ...span({ start: cell.start + inner.start, end: cell.start + inner.end }), labelled: true };
    }
    const typedKind = kind !== "fact" && kind !== "entity";
    // A fact has no type to check, so its label must name most of what is asked.
    const needed = typedKind ? 1 : Math.max(1, Math.ceil(asked.length / 2));
    if (best && (best.score >= needed || (fields.length === 1 && typedKind))) {
      const value = text.slice(best.f.start, best.f.end);
      const inner = typedSpans(value, kind, known)[0];
      const labelled = best.score >= needed;
      if (inner) return { ...span({ start: best.f.start + inner.start, end: best.f.start + inner.end }), labelled };
      // A name or fact is the whole value, unless the question already holds it ("ticket_id: Q-2042").
      if ((!typedKind || kind === "person") && !known.toLowerCase().includes(value.trim().toLowerCase()))
        return { ...span(best.f), labelled };
    }
  }
  const typed = typedSpans(text, kind, known).filter((m) => !known.includes(text.slice(m.start, m.end)));
  if (typed.length === 0) return undefined;
  if (typed.length === 1 || asked.length === 0) return span(typed[0]!);
  // Nearest to where the asked terms are: the value of "timeout" in "timeout 45 s, window 180 days".
  const lower = text.toLowerCase();
  const anchors = asked.flatMap((t) => {
    const at = lower.indexOf(t.toLowerCase());
    return at >= 0 ? [at] : [];
  });
  if (anchors.length === 0) return span(typed[0]!);
  const distance = (m: Match) => Math.min(...anchors.map((a) => (a < m.start ? m.start - a : (a - m.end) * 2)));
  return span([...typed].sort((a, b) => distance(a) - distance(b))[0]!);
}
