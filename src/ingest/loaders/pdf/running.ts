/**
 * Running page headers and footers: lines among the first or last two of a page, in its outer bands and set
 * apart from the body, that repeat on at least three pages verbatim ("Acme Corp Confidential"), or whose
 * first or last number follows the page number whatever the rest says ("Acme Corp | Q3 2023 Form 10-Q | 16",
 * "Page 7 of 50", "Chapter 2: Syntax | 3"). Linear in the pages.
 */
import type { Line } from "./lines.js";

export interface PageLines {
  lines: Line[];
  /** The page's vertical extent in user space (`page.view` y0 and y1). */
  bottom: number;
  top: number;
}

/** Lines in the outer 8% of the page at the top or bottom, among its first or last two lines, set apart. */
const BAND = 0.08;
const EDGE_LINES = 2;
const MIN_PAGES = 3;
/** A running line stands apart from the body: at least this many of its font sizes away from the next line. */
const APART = 1.5;

function edgeLines(page: PageLines): Line[] {
  const band = BAND * (page.top - page.bottom);
  const lines = page.lines.filter((l) => !l.turned);
  const out = new Set<Line>();
  for (let i = 0; i < Math.min(EDGE_LINES, lines.length); i++) {
    const line = lines[i] as Line;
    const next = lines[i + 1];
    if (line.y >= page.top - band && (!next || line.y - next.y >= APART * line.size)) out.add(line);
  }
  for (let i = Math.max(0, lines.length - EDGE_LINES); i < lines.length; i++) {
    const line = lines[i] as Line;
    const prev = lines[i - 1];
    if (line.y <= page.bottom + band && (!prev || prev.y - line.y >= APART * line.size)) out.add(line);
  }
  return [...out];
}

const MAX_RUNNING_CHARS = 160;

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };

/** A lower-case roman page number ("iv") as a number; front matter is numbered so. */
function roman(text: string): number | undefined {
  if (!/^[ivxlc]{1,8}$/.test(text)) return undefined;
  let total = 0;
  for (let k = 0; k < text.length; k++) {
    const v = ROMAN[text[k] as string] as number;
    const next = ROMAN[text[k + 1] ?? ""] ?? 0;
    total += v < next ? -v : v;
  }
  return total;
}

/** The first and last whole numbers of a text (up to five digits), or the roman numeral that is the text. */
function edgeNumbers(text: string): number[] {
  const r = roman(text.trim());
  if (r !== undefined) return [r, r];
  const numbers = text.match(/\b\d{1,5}\b/g);
  if (!numbers) return [];
  return [Number(numbers[0]), Number(numbers[numbers.length - 1])];
}

function count<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** The lines to drop as running headers and footers, across all pages. */
export function runningLines(pages: readonly PageLines[]): Set<Line> {
  const candidates: { line: Line; page: number; keys: string[] }[] = [];
  const verbatim = new Map<string, number>();
  const numbered = new Map<string, number>();
  pages.forEach((page, index) => {
    const seen = new Set<string>();
    const band = BAND * (page.top - page.bottom);
    for (const line of edgeLines(page)) {
      if (line.text.length > MAX_RUNNING_CHARS) continue;
      const side = line.y >= page.top - band ? "top" : "bottom";
      // A number that follows the page index keeps the same offset from it on every page.
      const keys = edgeNumbers(line.text).map((n, k) => `${side}|${k}|${n - index}`);
      candidates.push({ line, page: index, keys });
      for (const key of [`=${line.text}`, ...keys]) {
        if (seen.has(key)) continue;
        seen.add(key);
        count(key.startsWith("=") ? verbatim : numbered, key);
      }
    }
  });
  const need = Math.max(MIN_PAGES, Math.ceil(0.1 * pages.length));
  const out = new Set<Line>();
  for (const { line, keys } of candidates) {
    const repeated = (verbatim.get(`=${line.text}`) ?? 0) >= MIN_PAGES;
    if (repeated || keys.some((key) => (numbered.get(key) ?? 0) >= need)) out.add(line);
  }
  return out;
}
