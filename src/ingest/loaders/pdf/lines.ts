/**
 * Rebuilds a PDF page's text lines from its positioned text items: items grouped by baseline, ordered by x,
 * and split into cells where the horizontal gap is wider than a word space (table columns, dot leaders,
 * label and value). O(n log n) in the page's items.
 */

/** A text item as pdfjs reports it (`getTextContent().items`). */
export interface RawTextItem {
  str?: string;
  transform?: number[];
  width?: number;
  height?: number;
  fontName?: string;
}

export interface PdfItem {
  str: string;
  x: number;
  /** Baseline, in PDF user space (grows upwards). */
  y: number;
  width: number;
  size: number;
  font: string;
  /** The font is fixed-pitch (pdfjs styles say `monospace`): code, not a heading. */
  mono: boolean;
}

export interface Cell {
  text: string;
  left: number;
  right: number;
}

export interface Line {
  /** Baseline of the line's largest text. */
  y: number;
  size: number;
  /** The font holding most of the line's characters. */
  font: string;
  /** Every character of the line is in `font`. */
  uniform: boolean;
  /** Every character is in a fixed-pitch font. */
  mono: boolean;
  left: number;
  right: number;
  cells: Cell[];
  /** The cells' text joined by single spaces. */
  text: string;
  /** Set at a right angle to the page: never a running header or footer. */
  turned?: boolean;
}

/** A gap wider than this many font sizes separates two cells. */
const CELL_GAP = 1.5;
/** A gap wider than this many font sizes between items in a cell is a word space. */
const WORD_GAP = 0.15;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
/** Four or more dots (dot leaders), with any spacing. */
const LEADER = /\s*(?:\.\s*){4,}/g;
const CURRENCY = /^[$€£¥]$/;
const TRAILER = /^(?:%|\))$/;

export interface PageItems {
  /** Upright items, in user space. */
  upright: PdfItem[];
  /** Items set at a right angle (a table turned sideways), each group in its own text frame. */
  turned: PdfItem[][];
  /** Text of items at any other angle, or without a usable position, in stream order. */
  loose: string[];
}

/**
 * Items by orientation; positions of turned text are rotated into the text's own frame. `styles` is
 * `getTextContent().styles`, whose `fontFamily` tells fixed-pitch fonts.
 */
export function toItems(
  raw: readonly RawTextItem[],
  styles: Readonly<Record<string, { fontFamily?: unknown } | undefined>> = {},
): PageItems {
  const upright: PdfItem[] = [];
  const turned = new Map<number, PdfItem[]>();
  const loose: string[] = [];
  for (const item of raw) {
    const str = item.str;
    if (typeof str !== "string" || str.trim() === "") continue;
    const t = item.transform;
    const m = t && t.length >= 6 ? t.slice(0, 6) : [];
    if (m.length < 6 || !m.every((v) => typeof v === "number" && Number.isFinite(v))) {
      loose.push(str);
      continue;
    }
    const [ta, tb, tc, td, tx, ty] = m as [number, number, number, number, number, number];
    const size = Math.hypot(tc, td) || item.height || 1;
    const width = typeof item.width === "number" && Number.isFinite(item.width) ? Math.max(0, item.width) : 0;
    const font = item.fontName ?? "";
    const mono = styles[font]?.fontFamily === "monospace";
    const angle = Math.round((Math.atan2(tb, ta) * 180) / Math.PI);
    if (angle === 0) {
      upright.push({ str, x: tx, y: ty, width, size, font, mono });
      continue;
    }
    if (angle % 90 !== 0) {
      loose.push(str);
      continue;
    }
    // Coordinates along the text direction and perpendicular to it.
    const cos = Math.round(Math.cos((angle * Math.PI) / 180));
    const sin = Math.round(Math.sin((angle * Math.PI) / 180));
    const group = turned.get(angle) ?? [];
    group.push({ str, x: tx * cos + ty * sin, y: -tx * sin + ty * cos, width, size, font, mono });
    turned.set(angle, group);
  }
  return { upright, turned: [...turned.values()], loose };
}

function joinText(left: string, right: string, gap: number, size: number): string {
  if (left === "") return right;
  const a = left[left.length - 1] as string;
  const b = right[0] as string;
  if (/\s/.test(a) || /\s/.test(b)) return left + right;
  if (CJK.test(a) && CJK.test(b) && gap < 0.5 * size) return left + right;
  return gap > WORD_GAP * size ? `${left} ${right}` : left + right;
}

/**
 * Dot leaders inside one item run ("Introduction . . . . 1") separate cells like a wide gap; the parts'
 * positions are estimated from their share of the characters.
 */
function splitAtLeaders(cell: Cell): Cell[] {
  const parts = cell.text.split(LEADER);
  if (parts.length === 1) return [cell];
  const per = (cell.right - cell.left) / Math.max(1, cell.text.length);
  const out: Cell[] = [];
  let at = 0;
  for (const match of cell.text.matchAll(LEADER)) {
    const part = cell.text.slice(at, match.index);
    out.push({ text: part, left: cell.left + at * per, right: cell.left + (at + part.length) * per });
    at = (match.index ?? 0) + match[0].length;
  }
  out.push({ text: cell.text.slice(at), left: cell.left + at * per, right: cell.right });
  return out;
}

function cleanCell(text: string): string {
  return text.replace(LEADER, " ").replace(/\s+/g, " ").trim();
}

/** Cells of one line's items (sorted by x): leaders dropped, "$" joined to its amount, "%" and ")" to theirs. */
function cellsOf(items: PdfItem[]): Cell[] {
  const raw: Cell[] = [];
  let cur: (Cell & { size: number }) | undefined;
  let last: PdfItem | undefined;
  for (const item of items) {
    // Fake bold: the same text printed twice a fraction of a point apart.
    if (last && item.str === last.str && Math.abs(item.x - last.x) < 0.2 * item.size) continue;
    const gap = last ? item.x - (last.x + last.width) : 0;
    // A currency sign starts a cell: it belongs to the amount after it, not to the one before.
    if (!cur || gap > CELL_GAP * Math.max(item.size, cur.size) || CURRENCY.test(item.str.trim())) {
      if (cur) raw.push(cur);
      cur = { text: item.str, left: item.x, right: item.x + item.width, size: item.size };
    } else {
      cur.text = joinText(cur.text, item.str, gap, item.size);
      cur.right = Math.max(cur.right, item.x + item.width);
    }
    last = item;
  }
  if (cur) raw.push(cur);
  const cells: Cell[] = [];
  let pending: Cell | undefined;
  for (const cell of raw.flatMap(splitAtLeaders)) {
    const text = cleanCell(cell.text);
    if (text === "") continue;
    const prev = cells[cells.length - 1];
    if (pending) {
      cells.push({ text: pending.text + text, left: pending.left, right: cell.right });
      pending = undefined;
    } else if (CURRENCY.test(text)) pending = { text, left: cell.left, right: cell.right };
    else if (prev && TRAILER.test(text)) {
      prev.text += text;
      prev.right = cell.right;
    } else cells.push({ text, left: cell.left, right: cell.right });
  }
  if (pending) cells.push(pending);
  return cells;
}

function lineOf(items: PdfItem[]): Line | undefined {
  items.sort((p, q) => p.x - q.x);
  const cells = cellsOf(items);
  if (cells.length === 0) return undefined;
  const chars = new Map<string, number>();
  let top = items[0] as PdfItem;
  let mono = true;
  for (const item of items) {
    mono &&= item.mono;
    chars.set(item.font, (chars.get(item.font) ?? 0) + item.str.length);
    if (item.size > top.size) top = item;
  }
  let font = "";
  let most = -1;
  for (const [name, n] of chars) {
    if (n > most) {
      font = name;
      most = n;
    }
  }
  return {
    y: top.y,
    size: top.size,
    font,
    uniform: chars.size === 1,
    mono,
    left: (cells[0] as Cell).left,
    right: (cells[cells.length - 1] as Cell).right,
    cells,
    text: cells.map((c) => c.text).join(" "),
  };
}

/** Lines of items, top to bottom: an item joins the line when its baseline is within 0.4 font sizes. */
export function groupLines(items: readonly PdfItem[]): Line[] {
  const sorted = [...items].sort((p, q) => q.y - p.y || p.x - q.x);
  const lines: Line[] = [];
  let group: PdfItem[] = [];
  let baseline = 0;
  let size = 0;
  for (const item of sorted) {
    if (group.length > 0 && baseline - item.y > 0.4 * Math.max(size, item.size)) {
      const line = lineOf(group);
      if (line) lines.push(line);
      group = [];
    }
    if (group.length === 0) {
      baseline = item.y;
      size = item.size;
    }
    group.push(item);
  }
  const line = lineOf(group);
  if (line) lines.push(line);
  return lines;
}

/**
 * The page's lines in reading order. A page set in two columns (most lines split into two wide cells at
 * the same gutter) is read left column first, then right.
 */
export function pageLines(items: readonly PdfItem[]): Line[] {
  const lines = groupLines(items);
  if (lines.length < 6) return lines;
  let left = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  for (const line of lines) {
    left = Math.min(left, line.left);
    right = Math.max(right, line.right);
  }
  const wide = 0.3 * (right - left);
  const gutters: number[] = [];
  for (const line of lines) {
    const [a, b] = line.cells;
    if (line.cells.length === 2 && a && b && a.right - a.left > wide && b.right - b.left > wide)
      gutters.push((a.right + b.left) / 2);
  }
  if (gutters.length < 6 || gutters.length < 0.4 * lines.length) return lines;
  gutters.sort((p, q) => p - q);
  const gutter = gutters[gutters.length >> 1] as number;
  const leftItems = items.filter((i) => i.x + i.width / 2 < gutter);
  const rightItems = items.filter((i) => i.x + i.width / 2 >= gutter);
  return [...groupLines(leftItems), ...groupLines(rightItems)];
}
