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
}

const cellsOf = (line: string) =>
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

/**
 * Quotable units: sentences of prose paragraphs (hard-wrapped lines are joined into one paragraph), and
 * each table row, list item or heading on its own.
 */
export function unitsOf(text: string): Unit[] {
  const blocks: { start: number; end: number; header?: string[] }[] = [];
  const lines = text.split("\n");
  let offset = 0;
  let prose: { start: number; end: number } | undefined;
  let header: string[] | undefined;
  for (const [i, line] of lines.entries()) {
    const start = offset;
    const end = offset + line.length;
    offset = end + 1;
    const piped = line.trimStart().startsWith("|");
    const isTable = isTableRow(line);
    const starts = isTable && !isTableRow(lines[i - 1] ?? "");
    if (!isTable) header = undefined;
    if (line.trim() === "" || BLOCK_LINE.test(line) || isTable) {
      if (prose) blocks.push(prose);
      prose = undefined;
      if (isTable) {
        // A header row (the line before |---|) and the separator are not answers; data rows carry the header.
        if (SEPARATOR.test(line)) continue;
        // Without outer pipes (a converted HTML table) the first row is the header.
        if (SEPARATOR.test(lines[i + 1] ?? "") || (starts && !piped && isTableRow(lines[i + 1] ?? ""))) {
          header = cellsOf(line);
          continue;
        }
        blocks.push({ start, end, header });
      } else if (line.trim() !== "") blocks.push({ start, end });
      continue;
    }
    if (prose) prose.end = end;
    else prose = { start, end };
  }
  if (prose) blocks.push(prose);
  const out: Unit[] = [];
  for (const block of blocks) {
    // ICU ends a sentence at every line break; hard-wrapped prose is one paragraph, so segment it flattened.
    const body = text.slice(block.start, block.end).replace(/\n/g, " ");
    for (const s of sentences(body)) {
      if (s.text.replace(/[|\s:-]/g, "").length < 3) continue;
      out.push({ text: s.text, start: block.start + s.start, end: block.start + s.end, header: block.header });
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
  return `${tool}|${String(args.corpus ?? args.docId ?? "")}|${query}`;
}
