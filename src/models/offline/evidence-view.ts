import type { EvidenceItem } from "../../spec/answer.js";
import type { AgentState, CallRecord } from "../../spec/engine.js";
import { passageKey } from "../../spec/passage.js";
import { sentences } from "../../text/tokenize.js";

/** The calls made for one part, in order. */
export function callsForPart(state: AgentState, part: number): CallRecord[] {
  return state.calls.filter((c) => (c.call.subQuestion ?? 0) === part);
}

/** The evidence a call returned, best first, with its citation number. */
export function passagesOf(
  state: AgentState,
  record: CallRecord,
  top = Number.POSITIVE_INFINITY,
): { n: number; passage: EvidenceItem }[] {
  const out: { n: number; passage: EvidenceItem }[] = [];
  for (const key of record.passageKeys.slice(0, top)) {
    const index = state.evidence.findIndex((e) => passageKey(e) === key);
    if (index >= 0) out.push({ n: index + 1, passage: state.evidence[index]! });
  }
  return out;
}

/** A quotable unit of a passage: a sentence, or a line of a table or list. `text === passage.text.slice(start, end)`. */
export interface Unit {
  text: string;
  start: number;
  end: number;
  /** For a table row: the header row's cells, so "| Live | 100 |" reads as "Mode: Live; Sustained rate: 100". */
  header?: string[];
  /** The text of the nearest heading above the unit inside its passage ("## Signatures"): what the unit is under. */
  heading?: string;
}

/** The trimmed cells of a table row, its outer pipes dropped. */
export const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((c) => c.trim());
const SEPARATOR = /^\s*\|?\s*:?-{2,}/;

/**
 * A line of a table: it starts with a pipe (markdown), or its cells are joined by " | " without outer pipes
 * (tables of HTML pages and PDF filings as ingest writes them).
 */
export function isTableRow(line: string): boolean {
  const t = line.trimStart();
  return t.startsWith("|") || (t.length <= 600 && /\S \| \S/.test(t));
}

/** Lines that stand alone: tables, headings, quotes, list items, and `field: value` lines of records. */
const BLOCK_LINE = /^\s*(?:[|#>]|[-*+]\s|\d+[.)]\s|[\p{L}][\p{L}\d _-]{0,30}:\s)/u;

const HEADING = /^\s*#{1,6}\s+(.+?)\s*#*\s*$/;

/** How passages are cut into units. */
export interface UnitOptions {
  /**
   * A row whose cells after the first are each `header: value` ("Net sales | Year ended 2023: 4,210 |
   * 2022: 3,980", as the PDF loader writes a filing's table) carries its own headers: it is a row, not the
   * header of the rows under it, even at the top of its table.
   */
  labelledRows: boolean;
}

const UNIT_OPTIONS: UnitOptions = { labelledRows: true };

/**
 * A cell that is `header: value`: a short header with a letter, or a year (not the hour of a time "08:00"),
 * then a value (not a URL's "//").
 */
const LABELLED_CELL = /^(?=[^:|]{1,80}:)(?:[^:|]*\p{L}[^:|]*|\s*\d{4}\s*):\s*(?!\/\/)\S/u;

/** Does a row without outer pipes carry its headers in its cells: a label, then only `header: value` cells? */
export function selfLabelled(line: string): boolean {
  const cells = cellsOf(line);
  return cells.length >= 2 && cells.slice(1).every((c) => LABELLED_CELL.test(c));
}

/**
 * Quotable units: sentences of prose paragraphs (hard-wrapped lines are joined into one paragraph), and
 * each table row, list item or heading on its own. A table row stays whole: a cell's full stop ("Minor
 * units. Minimum 1,000.") does not end the row. Each unit knows the heading it sits under.
 */
export function unitsOf(text: string, options: UnitOptions = UNIT_OPTIONS): Unit[] {
  const blocks: { start: number; end: number; header?: string[]; row?: boolean; heading?: string }[] = [];
  const lines = text.split("\n");
  let offset = 0;
  let prose: { start: number; end: number } | undefined;
  let header: string[] | undefined;
  let heading: string | undefined;
  for (const [i, line] of lines.entries()) {
    const start = offset;
    const end = offset + line.length;
    offset = end + 1;
    const piped = line.trimStart().startsWith("|");
    const isTable = isTableRow(line);
    const starts = isTable && !isTableRow(lines[i - 1] ?? "");
    if (!isTable) header = undefined;
    if (line.trim() === "" || BLOCK_LINE.test(line) || isTable) {
      if (prose) blocks.push({ ...prose, heading });
      prose = undefined;
      if (isTable) {
        // A header row (the line before |---|) and the separator are not answers; data rows carry the header.
        if (SEPARATOR.test(line)) continue;
        // Without outer pipes (a converted HTML table) the first row is the header.
        const headerless = !piped && options.labelledRows && selfLabelled(line);
        if (SEPARATOR.test(lines[i + 1] ?? "") || (starts && !piped && !headerless && isTableRow(lines[i + 1] ?? ""))) {
          header = cellsOf(line);
          continue;
        }
        blocks.push({ start, end, header, row: true, heading });
      } else if (line.trim() !== "") {
        // A heading is its own unit (under the previous heading); the units after it are under it.
        blocks.push({ start, end, heading });
        const title = HEADING.exec(line)?.[1];
        if (title) heading = title;
      }
      continue;
    }
    if (prose) prose.end = end;
    else prose = { start, end };
  }
  if (prose) blocks.push({ ...prose, heading });
  const out: Unit[] = [];
  for (const block of blocks) {
    if (block.row) {
      const row = text.slice(block.start, block.end);
      const lead = row.length - row.trimStart().length;
      const body = row.trim();
      if (body.replace(/[|\s:-]/g, "").length < 3) continue;
      const start = block.start + lead;
      out.push({ text: body, start, end: start + body.length, header: block.header, heading: block.heading });
      continue;
    }
    // ICU ends a sentence at every line break; hard-wrapped prose is one paragraph, so segment it flattened.
    const body = text.slice(block.start, block.end).replace(/\n/g, " ");
    for (const s of sentences(body)) {
      if (s.text.replace(/[|\s:-]/g, "").length < 3) continue;
      out.push({ text: s.text, start: block.start + s.start, end: block.start + s.end, heading: block.heading });
    }
  }
  return out;
}

/** The searchable text of a passage: title, section and body. */
export function fullText(p: { title?: string; section?: string; text: string }): string {
  return `${p.title ?? ""}\n${p.section ?? ""}\n${p.text}`;
}

/** A stable key for a tool call, to notice repeats. */
export function callKey(tool: string, args: Record<string, unknown>): string {
  const query = typeof args.query === "string" ? args.query.toLowerCase().replace(/\s+/g, " ").trim() : "";
  const key = typeof args.key === "string" ? `|${args.key.toLowerCase().trim()}` : "";
  return `${tool}|${String(args.corpus ?? args.docId ?? "")}${key}|${query}`;
}
