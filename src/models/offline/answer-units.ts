/**
 * Which units of the evidence may answer a part at all. A heading names a section, it does not state
 * anything; a line of a table of contents points at a page; a row or field of another record than the one
 * the question names (ticket Q-2041 when Q-2042 is asked, error ER-1001 when ER-3001 is asked) answers a
 * different question. Such units are skipped as answer sources, so the answer neither quotes nor cites them.
 * Every check is linear in its input.
 */
import { looksLikeInstruction } from "../../safety/instruction-like.js";
import { extractEntities, mentions } from "../../text/entities.js";
import { fold, labelTerms, termSet } from "../../text/overlap.js";
import { isTableRow, selfLabelled } from "./evidence-view.js";
import type { CueTable } from "./question-cues.js";
import { fieldsOf } from "./value-span.js";

/** Titles and sections that mark a table of contents, in the four languages. */
export const CONTENTS: CueTable = {
  en: ["table of contents", "contents", "index"],
  de: ["inhaltsverzeichnis", "inhalt", "inhaltsübersicht"],
  zh: ["目录", "目錄"],
  ja: ["目次"],
};

/** A markdown heading line: "## Service credits" (one with a figure, "## v2.4 (2026-05-20)", may still answer). */
export function isHeading(text: string): boolean {
  return /^\s{0,3}#{1,6}\s/.test(text);
}

/** Dot or dash leaders before a page number: "Risk factors ........ 12", "Lagebericht – – – 4". */
const LEADERS = /(?:[.·…_–-]\s?){4,}\s*(?:\d{1,4}|[ivxlc]{1,6})\s*$/i;

/** A line of a table of contents: leaders to a page number. */
export function isContentsLine(text: string): boolean {
  return LEADERS.test(text.slice(-200));
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();

/** Is the title or section that of a table of contents ("Contents", "Inhaltsverzeichnis", "目次")? */
export function isContentsTitle(title: string): boolean {
  const t = norm(title.replace(/^[#\s]+/, ""));
  if (t === "") return false;
  return Object.values(CONTENTS).some((cues) => cues.some((c) => t === c || t.endsWith(`> ${c}`)));
}

/**
 * A passage that is a table of contents: its title or section says so, or most of its lines (at least four)
 * end in a page number after leaders or are short titles ending in a page number.
 */
const FIGURE = /^\$?\s*\(?-?[\d,.]+\)?%?$/;

/** A statement row: its cells carry their own headers, or it holds two figures or more (contents hold one page). */
function figureRow(line: string): boolean {
  if (selfLabelled(line)) return true;
  if (!isTableRow(line)) return false;
  return line.split("|").filter((c) => FIGURE.test(c.trim())).length >= 2;
}

export function isContentsPassage(
  p: { title?: string; section?: string; text: string },
  options: { labelledRows?: boolean } = {},
): boolean {
  if (isContentsTitle(p.title ?? "") || isContentsTitle(p.section ?? "")) return true;
  // A statement row of `header: value` cells ("R&D | 2025: 96 | 2024: 88") ends in a number, not a page's.
  const lines = p.text
    .split("\n")
    .filter((l) => l.trim() !== "" && !isHeading(l) && !(options.labelledRows && figureRow(l)));
  if (lines.length < 4) return false;
  const paged = lines.filter((l) => isContentsLine(l) || (l.length <= 90 && /\p{L}.*\s\d{1,4}\s*$/u.test(l)));
  return paged.length / lines.length >= 0.6;
}

/**
 * The shape of an identifier: its letters and the count of digits in each group ("Q-2042" -> "Q-4",
 * "REQ-2031-007" -> "INC-4-3"). Two identifiers of one shape name records of one kind.
 */
export function shapeOf(id: string): string {
  return id
    .toUpperCase()
    .split(/[-_/]/)
    .map((g) => (/^\d+$/.test(g) ? String(g.length) : g.replace(/\d+/g, (d) => `#${d.length}`)))
    .join("-");
}

/** The identifiers a text names (Q-2042, LX-000123, REQ-2031-007), upper-cased. */
export function identifiersIn(text: string): string[] {
  return extractEntities(text)
    .filter((e) => e.type === "identifier")
    .map((e) => e.text.toUpperCase());
}

/**
 * Does a unit belong to the record of another identifier than the asked ones? Its passage's document is that
 * record (`tickets.csv#Q-2041`), or the unit is a table row or field line naming only identifiers of an asked
 * one's shape that are not asked. Prose may mention other records in passing; it is not judged here.
 */
export function otherRecord(
  asked: readonly string[],
  unit: { text: string; record: boolean },
  docId: string,
  askedCollections: ReadonlySet<string> = new Set(),
): boolean {
  if (asked.length === 0) return false;
  const askedSet = new Set(asked.map((a) => a.toUpperCase()));
  const shapes = new Set([...askedSet].map(shapeOf));
  const hash = docId.indexOf("#");
  if (hash >= 0) {
    const key = docId.slice(hash + 1).toUpperCase();
    // Same shape as an asked id (T-1083 when T-1087 is asked), or a sibling in the collection that holds an
    // asked record (IR-03 beside NM-29 in one reports file): either way another record than the one asked.
    const sibling = shapes.has(shapeOf(key)) || askedCollections.has(docId.slice(0, hash));
    if (sibling && !askedSet.has(key) && !identifiersIn(unit.text).some((i) => askedSet.has(i))) return true;
  }
  if (!unit.record) return false;
  const ids = identifiersIn(unit.text);
  return ids.length > 0 && !ids.some((i) => askedSet.has(i)) && ids.some((i) => shapes.has(shapeOf(i)));
}

/** Is a unit a row of a table or a `field: value` line (a part of a record rather than prose)? */
export function isRecordLine(text: string, header?: readonly string[]): boolean {
  return header !== undefined || isTableRow(text) || /^\s*[\p{L}][\p{L}\d _-]{0,30}:\s/u.test(text);
}

/** Characters that make up the syntax of code and data samples (JSON, XML, shell), rare in prose. */
const CODE_SYNTAX = /[{}[\]<>;=\\]|":|`/g;

/**
 * Is a unit a code or payload sample (`{"events": [...]}`, `<tag a="b">`, `curl -X ...; echo`) rather than
 * a statement? Decided by the share of code syntax in it, not by words, so it holds for any language; at most
 * the first 2,000 characters are looked at.
 */
export function isCodeUnit(text: string): boolean {
  const head = text.slice(0, 2000);
  const syntax = head.match(CODE_SYNTAX)?.length ?? 0;
  return syntax >= 6 && syntax / head.length >= 0.04;
}

/**
 * A unit that states nothing to answer with: a heading without a figure, a line of a table of contents, or
 * a code sample (its values are examples, not facts).
 */
export function isBoilerplateUnit(text: string): boolean {
  return (isHeading(text) && !/\d/.test(text)) || isContentsLine(text) || isCodeUnit(text);
}

/** Is a unit a part of another record than the ones asked (see `otherRecord`)? */
export function ofOtherRecord(
  unit: { text: string; header?: readonly string[] },
  docId: string,
  askedIds: readonly string[],
  askedCollections?: ReadonlySet<string>,
): boolean {
  return otherRecord(
    askedIds,
    { text: unit.text, record: isRecordLine(unit.text, unit.header) },
    docId,
    askedCollections,
  );
}

/**
 * The collections (`safety_reports.jsonl` of `safety_reports.jsonl#NM-29`) whose records include one the
 * question names by its id: their other records are not what is asked.
 */
export function collectionsOf(docIds: Iterable<string>, askedIds: readonly string[]): Set<string> {
  const asked = new Set(askedIds.map((a) => a.toUpperCase()));
  const out = new Set<string>();
  if (asked.size === 0) return out;
  for (const id of docIds) {
    const hash = id.indexOf("#");
    if (hash >= 0 && asked.has(id.slice(hash + 1).toUpperCase())) out.add(id.slice(0, hash));
  }
  return out;
}

/** Where a sentence may end inside a unit, with or without a space after it ("…-Id.Note to …"). */
const SENTENCE_END = /[.!?。！？](?=\s|$|\p{Lu}|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/gu;

/**
 * The longest leading sentences of a unit that hold no instruction, when a later sentence of it does (a table
 * row whose last cell carries a note addressed to AI assistants): what the row states is still evidence, the
 * note never is. Undefined when the instruction starts the unit. At most `maxCuts` sentence ends are tried.
 */
export function cleanLead(text: string, maxCuts = 24): string | undefined {
  if (!looksLikeInstruction(text)) return text;
  let best: string | undefined;
  let tried = 0;
  for (const m of text.matchAll(SENTENCE_END)) {
    if (++tried > maxCuts) break;
    const lead = text.slice(0, m.index + 1);
    if (looksLikeInstruction(lead)) break;
    if (lead.trim().length >= 12) best = lead;
  }
  return best;
}

/**
 * Does a field of the unit answer what is asked: its label names an asked term ("status: closed" for "what
 * status ...") and its value is not only something the question already names (the record's own key,
 * "ticket_id: Q-2042", answers nothing)? Works on `label: value` lines and on table rows under a header.
 */
export function labelAnswers(
  unit: { text: string; header?: string[] },
  asked: readonly string[],
  named: readonly string[],
): boolean {
  if (asked.length === 0) return false;
  const want = new Set(asked.map(fold));
  return fieldsOf(unit.text, unit.header).some((f) => {
    const value = unit.text.slice(f.start, f.end).trim();
    if (value === "" || isNamed(value, named)) return false;
    return [...labelTerms(f.label)].some((t) => want.has(t));
  });
}

/** A value that is only something the question names (give or take punctuation). */
const isNamed = (value: string, named: readonly string[]) =>
  named.some((n) => mentions(value, n) && value.length <= n.length + 2);

/**
 * Is the unit only a record's key: every field's value is something the question already names
 * ("ticket_id: Q-2042" when Q-2042 is asked)? It tells the asker nothing they did not say.
 */
export function keyOnly(unit: { text: string; header?: string[] }, named: readonly string[]): boolean {
  const fields = fieldsOf(unit.text, unit.header);
  return fields.length > 0 && fields.every((f) => isNamed(unit.text.slice(f.start, f.end).trim(), named));
}

/**
 * The words that name the kind of an identifier the text names: the word just before it ("ticket" of
 * "work order Q-2042", "Sendung" of "Sendung LX-000123"). A field labelled by such a word ("Related
 * tickets") is about records of that kind, not what is asked of the one named.
 */
export function kindNouns(text: string): string[] {
  const out: string[] = [];
  for (const e of extractEntities(text)) {
    if (e.type !== "identifier") continue;
    const before = /([\p{L}][\p{L}_-]*)[\s:#]*$/u.exec(text.slice(Math.max(0, e.index - 40), e.index));
    if (before) out.push(...termSet(before[1]!));
  }
  return out;
}
