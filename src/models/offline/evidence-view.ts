import type { EvidenceItem } from "../../spec/answer.js";
import type { AgentState, CallRecord } from "../../spec/engine.js";
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
  for (const id of record.passageIds.slice(0, top)) {
    const index = state.evidence.findIndex((e) => e.id === id);
    if (index >= 0) out.push({ n: index + 1, passage: state.evidence[index]! });
  }
  return out;
}

/** A quotable unit of a passage: a sentence, or a line of a table or list. `text === passage.text.slice(start, end)`. */
export interface Unit {
  text: string;
  start: number;
  end: number;
}

const BLOCK_LINE = /^\s*(?:[|#>]|[-*+]\s|\d+[.)]\s)/;

/**
 * Quotable units: sentences of prose paragraphs (hard-wrapped lines are joined into one paragraph), and
 * each table row, list item or heading on its own.
 */
export function unitsOf(text: string): Unit[] {
  const blocks: { start: number; end: number }[] = [];
  let offset = 0;
  let prose: { start: number; end: number } | undefined;
  for (const line of text.split("\n")) {
    const start = offset;
    const end = offset + line.length;
    offset = end + 1;
    if (line.trim() === "" || BLOCK_LINE.test(line)) {
      if (prose) blocks.push(prose);
      prose = undefined;
      if (line.trim() !== "") blocks.push({ start, end });
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
      out.push({ text: s.text, start: block.start + s.start, end: block.start + s.end });
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
