/** Markdown heading structure of a text: the spans between ATX headings, each with its heading path. */

export interface Section {
  start: number;
  end: number;
  /** Heading titles, outermost first; empty before the first heading. */
  path: string[];
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(```|~~~)/;

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
    const heading = HEADING.exec(line);
    if (!heading) continue;
    const level = (heading[1] as string).length;
    while (stack.length > 0 && (stack[stack.length - 1] as { level: number }).level >= level) stack.pop();
    stack.push({ level, title: (heading[2] as string).trim() });
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
