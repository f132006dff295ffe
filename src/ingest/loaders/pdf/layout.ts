/**
 * From the lines of every page to the document's text: running headers and footers and glyph debris dropped,
 * tables as rows, headings from the outline (else from type and position) as `#` lines, pages separated by a
 * blank line, with the offset where each page starts. Linear in the number of lines, apart from per-page sorts.
 */
import { bodyStyle, findHeadings, type HeadingSpan, joinItemLabel, styleLevels, styleOf } from "./headings.js";
import type { Line } from "./lines.js";
import { matchOutline, type OutlineEntry, type OutlineMatch } from "./outline.js";
import { escapeLine, type PlacedHeading, renderPage } from "./render.js";
import { type PageLines, runningLines } from "./running.js";
import { findTables, type TableBlock } from "./tables.js";

export interface PdfPage extends PageLines {
  /** Text of items that are neither upright nor at a right angle, in stream order. */
  loose: string[];
}

export interface PdfLayout {
  text: string;
  /** `pageStarts[i]`: the offset in `text` where page i + 1 begins. */
  pageStarts: number[];
  /** The first heading of the document, if any. */
  firstHeading?: string;
  /** How many headings the text holds (outline and found). */
  headings: number;
}

const HAS_TEXT = /[\p{L}\p{N}]/u;

interface PagePlan {
  lines: Line[];
  tables: TableBlock[];
  outline: OutlineMatch[];
  found: HeadingSpan[];
}

function mostCommon<K>(counts: Map<K, number>): K | undefined {
  let best: K | undefined;
  let most = -1;
  for (const [k, n] of counts)
    if (n > most) {
      best = k;
      most = n;
    }
  return best;
}

export function layoutDocument(options: { pages: readonly PdfPage[]; outline?: readonly OutlineEntry[] }): PdfLayout {
  const { pages } = options;
  const running = runningLines(pages);
  const cleaned = pages.map((p) =>
    p.lines.filter((l) => !running.has(l) && l.cells.some((c) => HAS_TEXT.test(c.text))).map(joinItemLabel),
  );
  const body = bodyStyle(cleaned);
  const byPage = new Map<number, OutlineEntry[]>();
  for (const entry of options.outline ?? []) {
    const list = byPage.get(entry.page) ?? [];
    list.push(entry);
    byPage.set(entry.page, list);
  }

  const plans: PagePlan[] = cleaned.map((lines, index) => {
    const tables = findTables(lines);
    const used = new Uint8Array(lines.length);
    for (const t of tables) used.fill(1, t.start, t.end);
    const outline = matchOutline(lines, (i) => used[i] === 0, byPage.get(index) ?? []);
    for (const m of outline) used.fill(1, m.start, m.end);
    const found = findHeadings(lines, (i) => i >= 0 && i < lines.length && used[i] === 0, body);
    return { lines, tables, outline, found };
  });

  // Outline levels win; a found heading takes the level the outline gives its style, else ranks below them.
  const outlineStyle = new Map<string, Map<number, number>>();
  let deepest = 0;
  for (const plan of plans)
    for (const m of plan.outline) {
      deepest = Math.max(deepest, m.entry.level);
      const line = plan.lines[m.start];
      if (m.end === m.start || !line) continue;
      const style = styleOf(line, body);
      const levels = outlineStyle.get(style) ?? new Map<number, number>();
      levels.set(m.entry.level, (levels.get(m.entry.level) ?? 0) + 1);
      outlineStyle.set(style, levels);
    }
  const styleLevel = new Map<string, number>();
  for (const [style, levels] of outlineStyle) styleLevel.set(style, mostCommon(levels) as number);
  const rest = plans.flatMap((p) => p.found.map((h) => h.style)).filter((s) => !styleLevel.has(s));
  for (const [style, level] of styleLevels(rest, deepest + 1)) styleLevel.set(style, level);

  let text = "";
  let headings = 0;
  let firstHeading: string | undefined;
  const pageStarts: number[] = [];
  plans.forEach((plan, index) => {
    const placed: PlacedHeading[] = [
      ...plan.outline.map((m) => ({ start: m.start, end: m.end, text: m.text, level: m.entry.level })),
      ...plan.found.map((h) => ({ start: h.start, end: h.end, text: h.text, level: styleLevel.get(h.style) ?? 1 })),
    ].sort((a, b) => a.start - b.start);
    headings += placed.length;
    firstHeading ??= placed[0]?.text;
    let page = renderPage({ lines: plan.lines, tables: plan.tables, headings: placed });
    const loose = escapeLine((pages[index] as PdfPage).loose.join(" ").replace(/\s+/g, " ").trim());
    if (loose) page = page ? `${page}\n\n${loose}` : loose;
    if (text !== "" && page !== "") text += "\n\n";
    pageStarts.push(text.length);
    text += page;
  });
  return { text, pageStarts, firstHeading, headings };
}
