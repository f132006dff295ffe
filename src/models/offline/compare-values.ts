import { fold, termSet } from "../../text/overlap.js";
import { LEVELS } from "./compare-cues.js";
import { fieldsOf } from "./value-span.js";

/**
 * Values that order without being plain quantities: a time of day ("14:30" is earlier than "15:00") and a
 * rating on an ordered scale ("high" outranks "medium"). A comparison of two sides reads one of these from
 * each side's unit when both have one; otherwise it compares numbers (compare.ts).
 */
export interface OrderedValue {
  kind: "clock" | "level";
  /** Minutes after midnight for a clock time; the scale's rank for a level. */
  rank: number;
  text: string;
  /** Read from a field (a table cell, a `label: value` line) whose label names the compared attribute. */
  labelled: boolean;
}

const CLOCK = /(?<![\d:.])([01]?\d|2[0-3])[:：]([0-5]\d)(?![\d:])/u;

/** The first time of day a text states, in minutes after midnight. */
export function clockIn(text: string): { minutes: number; text: string } | undefined {
  const m = CLOCK.exec(text);
  return m ? { minutes: Number(m[1]) * 60 + Number(m[2]), text: m[0] } : undefined;
}

const LEVEL_RANK = new Map<string, number>(LEVELS.flatMap((words, rank) => words.map((w) => [w, rank] as const)));

/** The rank of a rating that is a whole value ("high", "High.", "**kritisch**"); undefined for anything else. */
export function levelOf(value: string): number | undefined {
  const v = value
    .replace(/[*`_.。!]/g, "")
    .trim()
    .toLowerCase();
  return v.length <= 20 ? LEVEL_RANK.get(v) : undefined;
}

/** Shortest shared start for a label word to name an attribute word ("severity" names "severe"). */
const STEM = 5;

/** How many attribute words a label names: the same folded word, or (long words) the same first letters. */
export function labelNames(label: string, attribute: readonly string[]): number {
  // A field name's parts are words ("risk_level").
  const words = [...termSet(label.replace(/[_-]+/g, " "))];
  return attribute.filter((a) => {
    const t = fold(a);
    return words.some(
      (w) => w === t || (t.length >= STEM && w.length >= STEM && w.slice(0, STEM) === t.slice(0, STEM)),
    );
  }).length;
}

/**
 * A unit's ordered value for a compared attribute. Fields first: among those holding a clock time or a
 * level, the one whose label names most of the attribute (a row's "Ferry" cell for "the earlier ferry
 * departure"; "severity: high" for "the graver rating"). Without such a field, the unit's first clock time
 * (unlabelled); a level is only read from a field.
 */
export function orderedValue(
  text: string,
  header: string[] | undefined,
  attribute: readonly string[],
): OrderedValue | undefined {
  let best: { value: OrderedValue; score: number } | undefined;
  for (const field of fieldsOf(text, header)) {
    const raw = text.slice(field.start, field.end);
    const level = levelOf(raw);
    const clock = level === undefined ? clockIn(raw) : undefined;
    if (level === undefined && !clock) continue;
    const score = labelNames(field.label, attribute);
    const value: OrderedValue =
      level !== undefined
        ? { kind: "level", rank: level, text: raw.replace(/[*`]/g, "").trim(), labelled: score > 0 }
        : { kind: "clock", rank: clock!.minutes, text: clock!.text, labelled: score > 0 };
    if (!best || score > best.score) best = { value, score };
  }
  if (best) return best.value;
  const clock = clockIn(text);
  return clock ? { kind: "clock", rank: clock.minutes, text: clock.text, labelled: false } : undefined;
}

/** A code standing for a named thing: "QRV", "BLM", "X2". */
const CODE = /^[\p{Lu}\d]{2,6}$/u;
const PAREN_CODE = /\(([\p{Lu}\d]{2,6})\)/gu;

/**
 * Codes the evidence gives for a name, so a table keyed by codes counts as about it: the key cell of a
 * table row that names it elsewhere ("| QRV | Quarrow Docks | ..." gives QRV for Quarrow), and a code in
 * brackets right after it ("Depot Bellmoor (BLM)"). A code must hold a letter, and not be the name's own words.
 */
export function codesFor(name: string, texts: readonly string[]): string[] {
  const folded = name.toLowerCase();
  if (folded.length < 3) return [];
  const out = new Set<string>();
  for (const text of texts) {
    for (const line of text.split("\n")) {
      const lower = line.toLowerCase();
      const at = lower.indexOf(folded);
      if (at < 0) continue;
      if (line.includes("|")) {
        const cells = line
          .trim()
          .replace(/^\||\|$/g, "")
          .split("|")
          .map((c) => c.trim().replace(/[*`]/g, ""));
        const key = cells[0] ?? "";
        if (CODE.test(key) && /\p{L}/u.test(key) && !key.toLowerCase().includes(folded)) {
          if (cells.slice(1).some((c) => c.toLowerCase().includes(folded))) out.add(key);
        }
      }
      for (const m of line.matchAll(PAREN_CODE)) {
        // Right after the name: only spaces and its own words between them ("Depot Bellmoor (BLM)", "Quarrow Docks (QRV)").
        const gap = line.slice(at + folded.length, m.index);
        if (/\p{L}/u.test(m[1]!) && gap.length <= 12 && !gap.includes(",")) out.add(m[1]!);
      }
    }
  }
  return [...out];
}
