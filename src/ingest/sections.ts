/** Markdown heading structure of a text: the spans between ATX headings, each with its heading path. */

export interface Section {
  start: number;
  end: number;
  /** Heading titles, outermost first; empty before the first heading. */
  path: string[];
}

const FENCE = /^ {0,3}(```|~~~)/;
const HASH = 0x23;

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/**
 * An ATX heading line: up to three spaces, one to six `#`, a space or tab, the title, optionally closing
 * `#`s after a space. Reads the line once (a regex with a lazy title and an optional closing sequence
 * backtracks quadratically on a long line of spaces or `#`). A line holding a carriage return or a line or
 * paragraph separator after the marker is not a heading, as before.
 */
export function parseHeading(line: string): { level: number; title: string } | undefined {
  let i = 0;
  while (i < 3 && line.charCodeAt(i) === 0x20) i++;
  let level = 0;
  while (line.charCodeAt(i + level) === HASH) level++;
  if (level < 1 || level > 6) return undefined;
  const marker = i + level;
  if (!isBlank(line.charCodeAt(marker))) return undefined;
  if (/[\r\u2028\u2029]/.test(line.slice(marker))) return undefined;
  let start = marker;
  while (start < line.length && isBlank(line.charCodeAt(start))) start++;
  if (start === line.length) return start - marker >= 2 ? { level, title: "" } : undefined;
  let end = line.length;
  while (isBlank(line.charCodeAt(end - 1))) end--;
  if (line.charCodeAt(end - 1) === HASH) {
    let hashes = end - 1;
    while (line.charCodeAt(hashes - 1) === HASH) hashes--;
    let gap = hashes;
    while (gap > start && isBlank(line.charCodeAt(gap - 1))) gap--;
    if (gap < hashes && gap > start) end = gap;
  }
  return { level, title: line.slice(start, end).trim() };
}

/**
 * Splits text at Markdown headings (outside fenced code). A section that holds only its heading is
 * joined to the next one, so a heading is never a chunk on its own.
 */
export function sections(text: string): Section[] {
  const raw: (Section & { headingEnd: number })[] = [];
  const stack: { level: number; title: string }[] = [];
  let fence: string | undefined;
  let offset = 0;
  let current: (Section & { headingEnd: number }) | undefined = { start: 0, end: text.length, path: [], headingEnd: 0 };
  for (const line of text.split("\n")) {
    const lineStart = offset;
    offset += line.length + 1;
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1] as string;
      if (fence === undefined) fence = marker;
      else if (fence === marker) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = parseHeading(line);
    if (!heading) continue;
    const { level } = heading;
    while (stack.length > 0 && (stack[stack.length - 1] as { level: number }).level >= level) stack.pop();
    stack.push({ level, title: heading.title });
    if (current) {
      current.end = lineStart;
      raw.push(current);
    }
    current = {
      start: lineStart,
      end: text.length,
      path: stack.map((h) => h.title),
      headingEnd: lineStart + line.length,
    };
  }
  if (current) raw.push(current);

  const out: Section[] = [];
  let carry: number | undefined;
  raw.forEach((section, i) => {
    const body = text.slice(section.headingEnd, section.end);
    const isLast = i === raw.length - 1;
    if (body.trim() === "" && !isLast) {
      // Heading-only (or empty preamble): its text moves into the next section.
      carry ??= section.start;
      return;
    }
    out.push({ start: carry ?? section.start, end: section.end, path: section.path });
    carry = undefined;
  });
  return out.filter((s) => text.slice(s.start, s.end).trim() !== "");
}
