/**
 * A near miss on the subject: the line that answers gives the value for another named thing than asked
 * ("Rotterdam: 7 km/h" when the question asks about Lyon and the evidence names Lyon elsewhere). The line's
 * subject is the name that labels it: the label of a `Name: value` line, or the first cell of a table row,
 * when the evidence writes that label as a name elsewhere.
 */
import { mentions } from "../../text/entities.js";
import type { Constraint } from "./constraints.js";
import { isTableRow } from "./evidence-view.js";

/**
 * A label that may be a name: capitalised words (at most three, no digits). Whether it is one is decided by
 * how the evidence writes it elsewhere (see `writtenAsName`). CJK text has no case to tell a name from a
 * field name, so a CJK label is not judged.
 */
const NAME_LABEL = /^\p{Lu}[\p{L}'’.&-]*(?:\s+\p{Lu}[\p{L}'’.&-]*){0,2}$/u;

/**
 * Is the word written capitalised after a lower-case word somewhere in the text ("... in Rotterdam"), or as a
 * table cell's value outside the header row? A field name that only starts lines ("Forklifts: 7 km/h") or
 * heads a column is not; a place, company or product name is.
 * One `indexOf` scan, at most `maxHits` occurrences looked at.
 */
export function writtenAsName(word: string, text: string, maxHits = 50): boolean {
  let from = 0;
  for (let hits = 0; hits < maxHits; hits++) {
    const at = text.indexOf(word, from);
    if (at < 0) return false;
    from = at + word.length;
    if (/[\p{L}\p{N}]/u.test(text.charAt(from))) continue;
    const before = text.slice(Math.max(0, at - 24), at);
    if (/\p{Ll}[\p{L}'’-]*[ \t]+$/u.test(before)) return true;
    // A table cell's value ("| RTM | Rotterdam Waalhaven |"): a name, unless the row is the table's header.
    if (/\|[ \t]*$/.test(before) && !headerRow(text, from)) return true;
  }
  return false;
}

/** Is the line holding `at` a table's header row (the next line is its `|---|` separator)? */
function headerRow(text: string, at: number): boolean {
  const end = text.indexOf("\n", at);
  if (end < 0) return false;
  return /^[ \t]*\|?[ \t]*:?-{3,}/.test(text.slice(end + 1, end + 1 + 12));
}

/** The name a line is about when one labels it; undefined for prose and unlabelled lines. */
export function subjectOf(quote: string): string | undefined {
  const text = quote.replace(/\*\*|`/g, "").trim();
  let label: string | undefined;
  if (isTableRow(text)) {
    label = text.replace(/^\|/, "").split("|")[0]?.trim();
  } else {
    const m = /^(?:[-*+]\s+)?([^:：\n]{2,40})[:：]\s*\S/u.exec(text);
    label = m?.[1]?.trim();
  }
  return label && NAME_LABEL.test(label) ? label : undefined;
}

/**
 * The other subject the answering line is about, when the question names something (a name or identifier
 * the line's passage does not hold) and the line is labelled by a name the question does not mention.
 */
export function otherSubject(
  quote: string,
  question: string,
  leadMissing: readonly Constraint[],
  evidence: string,
): string | undefined {
  const named = leadMissing.filter((c) => c.kind === "name" || c.kind === "identifier");
  if (named.length === 0) return undefined;
  const subject = subjectOf(quote);
  if (!subject || mentions(question, subject) || !writtenAsName(subject, evidence)) return undefined;
  return subject;
}

/**
 * The other name a sentence gives its value for, when its passage does not name what the question does:
 * "Rotterdam: 7 km/h" from a page of speed limits without Lyon, asked about Lyon. `entities` are the names the
 * question asks about; `evidence` tells names from field labels (see `writtenAsName`).
 */
export function valueForOther(
  sentence: { quote: string; passageText: string },
  entities: readonly string[],
  question: string,
  evidence: string,
): string | undefined {
  const missing = entities.filter((e) => !mentions(sentence.passageText, e));
  if (missing.length === 0) return undefined;
  return otherSubject(
    sentence.quote,
    question,
    missing.map((text) => ({ kind: "name", value: text.toLowerCase(), text })),
    evidence,
  );
}
