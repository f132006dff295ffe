/**
 * Headings found from type and position: a short line set larger than the body text or in another font
 * (bold) on its own, or a filing item ("PART II", "Item 2. Management's Discussion…") or numbered heading
 * ("3.2 Results") standing on its own. Consecutive heading lines of one style are one heading. Levels come
 * from the styles: larger first, then other fonts before the body font.
 */
import type { Line } from "./lines.js";

export interface BodyStyle {
  size: number;
  font: string;
}

export interface HeadingSpan {
  /** The heading spans `lines[start..end)`. */
  start: number;
  end: number;
  text: string;
  /** Size (rounded to half a point) and whether it is in another font than the body: ranks the levels. */
  style: string;
}

const FILING = /^(?:part\s+[ivx]+\b|item\s+\d{1,2}[a-z]?\b\.?)/i;
const NUMBERED = /^\d{1,2}(?:\.\d{1,2})+\.?\s+\p{Lu}/u;
const MAX_HEADING_CHARS = 200;
const MAX_HEADING_LINES = 3;

/** The size and font that hold most of the document's characters. */
export function bodyStyle(pages: readonly (readonly Line[])[]): BodyStyle {
  const bySize = new Map<number, number>();
  const byFont = new Map<string, number>();
  for (const lines of pages)
    for (const line of lines) {
      const size = Math.round(line.size * 2) / 2;
      bySize.set(size, (bySize.get(size) ?? 0) + line.text.length);
    }
  let size = 0;
  let most = -1;
  for (const [s, n] of bySize)
    if (n > most) {
      size = s;
      most = n;
    }
  for (const lines of pages)
    for (const line of lines)
      if (Math.abs(line.size - size) < 0.5) byFont.set(line.font, (byFont.get(line.font) ?? 0) + line.text.length);
  let font = "";
  most = -1;
  for (const [f, n] of byFont)
    if (n > most) {
      font = f;
      most = n;
    }
  return { size, font };
}

/** "Item 1A." and its title a tab apart are one line, not a two-column table row. */
export function joinItemLabel(line: Line): Line {
  const [first, second] = line.cells;
  if (line.cells.length !== 2 || !first || !second || !FILING.test(first.text) || first.text.length > 12) return line;
  if (/\d\s*$/.test(second.text)) return line; // "Item 1. Financial Statements | 3" is a contents row.
  const text = `${first.text} ${second.text}`;
  return { ...line, cells: [{ text, left: first.left, right: second.right }], text };
}

/** A line's heading style: its size to half a point, and "b" when it is wholly in another font than the body. */
export function styleOf(line: Line, body: BodyStyle): string {
  const other = line.uniform && line.font !== body.font;
  return `${Math.round(line.size * 2) / 2}|${other ? "b" : "r"}`;
}

function looksLikeHeading(text: string): boolean {
  if (text.length < 2 || text.length > MAX_HEADING_CHARS || !/\p{L}/u.test(text)) return false;
  if (/^\p{Ll}/u.test(text)) return false;
  return !/[,;:]$/.test(text) && !(/\.$/.test(text) && !FILING.test(text));
}

/** The page's headings among the free lines (outside tables and outline headings). */
export function findHeadings(lines: readonly Line[], free: (i: number) => boolean, body: BodyStyle): HeadingSpan[] {
  let textRight = Number.NEGATIVE_INFINITY;
  let textLeft = Number.POSITIVE_INFINITY;
  for (const line of lines) {
    textRight = Math.max(textRight, line.right);
    textLeft = Math.min(textLeft, line.left);
  }
  const width = textRight - textLeft;
  const gapAbove = (i: number) => {
    const prev = lines[i - 1];
    return prev ? prev.y - (lines[i] as Line).y : Number.POSITIVE_INFINITY;
  };
  const standsAlone = (i: number) => {
    const line = lines[i] as Line;
    const prev = lines[i - 1];
    const apart = gapAbove(i) > 1.45 * line.size || !free(i - 1) || (prev !== undefined && /[.!?:]$/.test(prev.text));
    return apart && line.right - line.left < 0.9 * width;
  };
  const candidate = (i: number): boolean => {
    const line = lines[i] as Line;
    if (!free(i) || line.cells.length !== 1 || line.mono || !looksLikeHeading(line.text)) return false;
    if (line.size < body.size * 0.95) return false;
    if (line.size >= body.size * 1.15) return true;
    if (line.uniform && line.font !== body.font) return standsAlone(i) || gapAbove(i) > 1.2 * line.size;
    return (FILING.test(line.text) || NUMBERED.test(line.text)) && standsAlone(i);
  };
  const out: HeadingSpan[] = [];
  let i = 0;
  while (i < lines.length) {
    if (!candidate(i)) {
      i++;
      continue;
    }
    const first = lines[i] as Line;
    const style = styleOf(first, body);
    let end = i + 1;
    let text = first.text;
    // A heading set on two or three lines: same style, line spacing, and not a new filing item.
    while (end < lines.length && end - i < MAX_HEADING_LINES) {
      const next = lines[end] as Line;
      const prev = lines[end - 1] as Line;
      const joined = `${text} ${next.text}`;
      const sameStyle = styleOf(next, body) === style && (style.endsWith("|b") || next.size >= body.size * 1.15);
      if (!free(end) || !sameStyle || prev.y - next.y > 1.45 * next.size || FILING.test(next.text)) break;
      if (next.cells.length !== 1 || joined.length > MAX_HEADING_CHARS) break;
      text = joined;
      end++;
    }
    if (looksLikeHeading(text)) out.push({ start: i, end, text, style });
    i = end;
  }
  return out;
}

/** Levels (1 = outermost) for heading styles: larger sizes first, other fonts before the body font. */
export function styleLevels(styles: Iterable<string>, first = 1): Map<string, number> {
  const list = [...new Set(styles)].map((s) => {
    const [size, kind] = s.split("|");
    return { s, size: Number(size), bold: kind === "b" };
  });
  list.sort((a, b) => b.size - a.size || Number(b.bold) - Number(a.bold));
  return new Map(list.map((x, k) => [x.s, Math.min(6, first + k)]));
}
