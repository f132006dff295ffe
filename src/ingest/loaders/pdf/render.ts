/**
 * Writes one page as Markdown-shaped text: headings as `#` lines, tables as rows, and prose with the lines of
 * a paragraph joined (a line that reaches the right margin continues on the next), paragraphs separated by a
 * blank line. Linear in the page's lines.
 */
import type { Line } from "./lines.js";
import type { TableBlock } from "./tables.js";

export interface PlacedHeading {
  /** Spans `lines[start..end)`; inserted before `lines[start]` when `start === end`. */
  start: number;
  end: number;
  text: string;
  level: number;
}

const CJK_END = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]$/u;
const CJK_START = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;

/** A text line that Markdown would read as a heading or a code fence is escaped, so sections stay true. */
export function escapeLine(text: string): string {
  return /^ {0,3}(?:#|```|~~~)/.test(text) ? `\\${text.trimStart()}` : text;
}

function continues(prev: string, next: string): string {
  if (/\p{L}-$/u.test(prev) && /^\p{Ll}/u.test(next)) return prev + next;
  if (CJK_END.test(prev) && CJK_START.test(next)) return prev + next;
  return `${prev} ${next}`;
}

export function renderPage(options: {
  lines: readonly Line[];
  tables: readonly TableBlock[];
  headings: readonly PlacedHeading[];
}): string {
  const { lines, tables, headings } = options;
  const blocks: string[] = [];
  const tableAt = new Map(tables.map((t) => [t.start, t]));
  const headingsAt = new Map<number, PlacedHeading[]>();
  for (const h of headings) {
    const list = headingsAt.get(h.start) ?? [];
    list.push(h);
    headingsAt.set(h.start, list);
  }

  let left = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  for (const line of lines) {
    left = Math.min(left, line.left);
    right = Math.max(right, line.right);
  }
  const full = right - 0.08 * (right - left);

  let para: string[] = [];
  let current = "";
  let prev: Line | undefined;
  const endParagraph = () => {
    if (current) para.push(current);
    if (para.length > 0) blocks.push(para.map(escapeLine).join("\n"));
    para = [];
    current = "";
    prev = undefined;
  };

  let i = 0;
  while (i <= lines.length) {
    let skipTo = i;
    for (const h of headingsAt.get(i) ?? []) {
      endParagraph();
      blocks.push(`${"#".repeat(h.level)} ${h.text}`);
      skipTo = Math.max(skipTo, h.end);
    }
    if (i === lines.length) break;
    if (skipTo > i) {
      i = skipTo;
      continue;
    }
    const table = tableAt.get(i);
    if (table) {
      endParagraph();
      if (table.rows.length > 0) blocks.push(table.rows.map(escapeLine).join("\n"));
      i = Math.max(table.end, i + 1);
      continue;
    }
    const line = lines[i] as Line;
    if (prev) {
      const gap = prev.y - line.y;
      const size = Math.max(prev.size, line.size);
      if (gap > 1.45 * size || gap < 0.5 * size) endParagraph();
      else if (prev.right >= full && Math.abs(line.size - prev.size) < 0.5) current = continues(current, line.text);
      else {
        para.push(current);
        current = line.text;
      }
    }
    if (!prev) current = line.text;
    prev = line;
    i++;
  }
  endParagraph();
  return blocks.join("\n\n");
}
