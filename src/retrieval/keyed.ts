import { ownNames } from "./identity.js";

/**
 * How a passage is keyed by a value, strongest first:
 * - `record`: the passage's document is the value's own record (its JSONL id, its table key, its file name);
 * - `row`: a table row whose first cell is the value (a directory: "| ZQ | Zuidkade depot | ... |");
 * - `entry`: a line that starts with the value and defines it ("ZQ: Zuidkade depot", "## ZQ", "- **ZQ** – ...");
 * - `alias`: a heading that gives the value in brackets after a name ("# Zuidkade depot (ZQ)").
 * A passage that only mentions the value in a sentence or a record field ("depot: ZQ") is not keyed by it.
 */
export type KeyedKind = "record" | "row" | "entry" | "alias";

export interface Keyed {
  kind: KeyedKind;
  /** The keyed line within the passage text (`text.slice(start, end)`); the whole text for a record. */
  start: number;
  end: number;
  /** For a row: the first row of its table (the header that names its cells). */
  header?: string;
}

/** Strength of each kind, for ranking (a record first). */
export const KEYED_RANK: Readonly<Record<KeyedKind, number>> = { record: 4, row: 3, entry: 2, alias: 1 };

/** Longest line read for a key (a longer one is prose or data, never a directory entry). */
const MAX_LINE = 1000;

const fold = (s: string) => s.normalize("NFKC").toLowerCase();

/** Markup around a cell or at a line's start that does not change what it says. */
const MARKUP = /^[\s*_`~]+|[\s*_`~]+$/g;
/** A list marker, heading marks or a quote marker at a line's start. */
const LEAD = /^\s*(?:#{1,6}\s+|>\s*|[-*+•]\s+|\d{1,3}[.)]\s+)?/u;
/** What may follow a key that starts a defining line: a separator, a bracket, or nothing. */
const DEFINES = /^[\s*_`~]*(?:$|[:：=|(（]|[–—]|-\s)/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** A line of a table: it starts with a pipe, or its cells are joined by " | " (a converted HTML table). */
function isRow(line: string): boolean {
  const t = line.trim();
  return t.startsWith("|") || /\S \| \S/.test(t);
}

function firstCell(line: string): string | undefined {
  const t = line.trim();
  const body = t.startsWith("|") ? t.slice(1) : t;
  const bar = body.indexOf("|");
  if (bar < 0) return undefined;
  // Without outer pipes a row is "cell | cell" (a converted HTML table): a bar with spaces around it.
  if (!t.startsWith("|") && !/\s\|\s/.test(body)) return undefined;
  return body.slice(0, bar).replace(MARKUP, "");
}

/** Does a line start with the key (after list and heading marks and emphasis) and go on to define it? */
function startsEntry(line: string, key: string): boolean {
  const lead = LEAD.exec(line)?.[0].length ?? 0;
  const rest = line.slice(lead).replace(/^[*_`~]+/, "");
  if (fold(rest.slice(0, key.length)) !== key) return false;
  const after = rest.slice(key.length);
  if (WORD_CHAR.test(after.charAt(0))) return false;
  return DEFINES.test(after);
}

/** A heading that gives the key in brackets: "# Name (KEY)" or "# 名前（KEY）...". */
function aliasHeading(line: string, key: string): boolean {
  if (!/^\s*#{1,6}\s/.test(line)) return false;
  const folded = fold(line);
  for (const [open, close] of [
    ["(", ")"],
    ["（", "）"],
  ] as const) {
    if (folded.includes(`${open}${key}${close}`)) return true;
  }
  return false;
}

/**
 * A row whose first cell is the key is its row; one whose first cell starts with it as a whole word (a longer
 * name, "ZQ Holding GmbH" for "ZQ Holding", or "ZQ to DE" for "ZQ") is an entry under it.
 */
function cellKind(cell: string, key: string): KeyedKind | undefined {
  if (cell === key) return "row";
  return cell.startsWith(key) && !WORD_CHAR.test(cell.charAt(key.length)) ? "entry" : undefined;
}

function lineKind(line: string, key: string): KeyedKind | undefined {
  if (startsEntry(line, key)) return "entry";
  return aliasHeading(line, key) ? "alias" : undefined;
}

/**
 * Where a passage is keyed by `key` (see `KeyedKind`), or undefined when it only mentions it. Case and width
 * are folded; a line is read once, so the scan is linear in the text.
 */
export function keyedBy(passage: { docId: string; text: string }, key: string): Keyed | undefined {
  const wanted = fold(key.trim());
  if (wanted.length === 0) return undefined;
  if (ownNames(passage.docId).some((n) => fold(n) === wanted)) {
    return { kind: "record", start: 0, end: passage.text.length };
  }
  let best: Keyed | undefined;
  let offset = 0;
  let header: string | undefined;
  for (const line of passage.text.split("\n")) {
    const start = offset;
    offset += line.length + 1;
    const row = isRow(line);
    if (!row) header = undefined;
    else if (header === undefined) header = line.trim();
    if (line.length > MAX_LINE || !fold(line).includes(wanted)) continue;
    const cell = row ? firstCell(line) : undefined;
    const kind = cell !== undefined ? cellKind(fold(cell), wanted) : lineKind(line, wanted);
    if (kind && (!best || KEYED_RANK[kind] > KEYED_RANK[best.kind])) {
      best = { kind, start, end: start + line.length, ...(row && header !== line.trim() ? { header } : {}) };
      if (kind === "row") break;
    }
  }
  return best;
}
