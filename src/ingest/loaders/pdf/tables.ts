/**
 * Tables on a page, from the cell structure of its lines: runs of lines with two or more cells. Value columns
 * are the x-extents of the numeric cells; header lines (above the first row with a label and a number) are
 * merged per column, top to bottom, so "Three Months Ended" over "July 1," over "2023" becomes one header;
 * each row is written as `label | header: value | header: value`, so a row carries its dates wherever a
 * chunk boundary falls. Linear in the page's cells after one sort of the numeric cells.
 */
import type { Cell, Line } from "./lines.js";

export interface TableBlock {
  /** Line indices: the table spans `lines[start..end)`. */
  start: number;
  end: number;
  rows: string[];
}

const NUMERIC = /^[-+−]?\d[\d,.]*$/;
const DASH = /^[—–-]+$/;

/** An amount as filings print it: "1,234", "(56.2)", "$4,324", "12%", "—". */
export function isNumeric(text: string): boolean {
  const core = text.replace(/[$€£¥%()\s]/g, "");
  return NUMERIC.test(core) || DASH.test(core);
}

interface Column {
  left: number;
  right: number;
}

/** Merged x-intervals of the cells, left to right. */
function intervals(cells: Cell[]): Column[] {
  const sorted = [...cells].sort((a, b) => a.left - b.left);
  const out: Column[] = [];
  for (const c of sorted) {
    const last = out[out.length - 1];
    if (last && c.left <= last.right) last.right = Math.max(last.right, c.right);
    else out.push({ left: c.left, right: c.right });
  }
  return out;
}

function overlap(cell: Cell, col: Column): number {
  return Math.min(cell.right, col.right) - Math.max(cell.left, col.left);
}

/** Column indices a cell belongs to: those it overlaps, else the nearest by centre. */
function columnsOf(cell: Cell, cols: Column[]): number[] {
  const hit: number[] = [];
  cols.forEach((col, i) => {
    if (overlap(cell, col) > 0) hit.push(i);
  });
  if (hit.length > 0) return hit;
  const centre = (cell.left + cell.right) / 2;
  let best = 0;
  cols.forEach((col, i) => {
    const best_ = cols[best] as Column;
    if (Math.abs((col.left + col.right) / 2 - centre) < Math.abs((best_.left + best_.right) / 2 - centre)) best = i;
  });
  return [best];
}

/** Runs of table lines: multi-cell lines, with single-cell captions between them ("Cost of sales:"). */
function regions(lines: Line[]): [number, number][] {
  const out: [number, number][] = [];
  let i = 0;
  while (i < lines.length) {
    if ((lines[i] as Line).cells.length < 2) {
      i++;
      continue;
    }
    const start = i;
    let end = i + 1;
    let left = (lines[i] as Line).left;
    let right = (lines[i] as Line).right;
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j] as Line;
      const prev = lines[j - 1] as Line;
      if (prev.y - line.y > 3 * Math.max(prev.size, line.size)) break;
      if (line.cells.length >= 2) {
        end = j + 1;
        left = Math.min(left, line.left);
        right = Math.max(right, line.right);
        continue;
      }
      // A short single-cell line stays in the table only when a multi-cell line follows within two lines.
      const short = line.right - line.left < 0.6 * (right - left);
      const resumes = [lines[j + 1], lines[j + 2]].some((l) => l !== undefined && l.cells.length >= 2);
      if (!short || !resumes) break;
    }
    out.push([start, end]);
    i = end;
  }
  return out;
}

/** The value columns of a region: the x-extents of its numeric cells that are not a row's label. */
function valueColumns(lines: Line[], labelEdge: number): Column[] {
  const numeric: Cell[] = [];
  for (const line of lines)
    line.cells.forEach((cell, k) => {
      if ((k > 0 || cell.left > labelEdge) && isNumeric(cell.text)) numeric.push(cell);
    });
  return intervals(numeric);
}

function regionColumns(lines: Line[]): Column[] {
  let left = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  for (const line of lines) {
    left = Math.min(left, line.left);
    right = Math.max(right, line.right);
  }
  return valueColumns(lines, left + 0.35 * (right - left));
}

function formatRegion(lines: Line[], cols: Column[]): string[] {
  if (cols.length === 0) return lines.map((l) => l.cells.map((c) => c.text).join(" | "));
  const firstCol = cols[0] as Column;
  const tolerance = 0.5 * ((lines[0] as Line).size || 1);
  const split = (line: Line) => {
    const label: string[] = [];
    const values: string[][] = cols.map(() => []);
    let numbers = 0;
    for (const cell of line.cells) {
      if ((cell.left + cell.right) / 2 < firstCol.left) {
        label.push(cell.text);
        continue;
      }
      if (isNumeric(cell.text)) numbers++;
      for (const c of columnsOf(cell, cols)) (values[c] as string[]).push(cell.text);
    }
    return { label: label.join(" "), values: values.map((v) => v.join(" ")), numbers };
  };
  const parts = lines.map(split);
  const firstRow = parts.findIndex((p) => p.label !== "" && p.numbers > 0);
  // Header lines: those above the first row that put text over the value columns; label-only lines between
  // the header and the first row are captions of the rows ("Net sales:").
  let body = 0;
  for (let k = 0; k < firstRow; k++)
    if ((parts[k] as (typeof parts)[number]).values.some((v) => v !== "")) body = k + 1;
  const headers: string[] = cols.map(() => "");
  const out: string[] = [];
  for (const p of parts.slice(0, body)) {
    p.values.forEach((v, c) => {
      if (v) headers[c] = headers[c] ? `${headers[c]} ${v}` : v;
    });
    if (p.label) out.push(p.label);
  }
  let caption: { text: string; left: number } | undefined;
  // A label-only line that may be the first half of a wrapped row label ("Net cash provided by operating").
  let carry: string | undefined;
  const flush = () => {
    if (carry) out.push(carry);
    carry = undefined;
  };
  parts.slice(body).forEach((p, k) => {
    const line = lines[body + k] as Line;
    if (!p.values.some((v) => v !== "")) {
      flush();
      // "Net sales:" introduces the indented rows below it.
      caption = p.label.endsWith(":") ? { text: p.label, left: line.left } : undefined;
      if (caption) out.push(p.label);
      else carry = p.label || undefined;
      return;
    }
    let label = p.label;
    if (carry && /^\p{Ll}/u.test(label)) {
      label = `${carry} ${label}`;
      carry = undefined;
    } else flush();
    if (caption && line.left <= caption.left + tolerance) caption = undefined;
    if (caption && label) label = `${caption.text} ${label}`;
    const cells = p.values.flatMap((v, c) => (v === "" ? [] : [headers[c] ? `${headers[c]}: ${v}` : v]));
    out.push([label, ...cells].filter((s) => s !== "").join(" | "));
  });
  flush();
  return out;
}

/** The tables of a page's lines (with their line ranges) and their rows as text. */
export function findTables(lines: Line[]): TableBlock[] {
  const out: TableBlock[] = [];
  for (const [start, end] of regions(lines)) {
    let from = start;
    let cols = regionColumns(lines.slice(from, end));
    // A single spanning header just above the table ("Three Months Ended" over two columns) belongs to it.
    const above = lines[from - 1];
    const first = lines[from] as Line;
    const firstCol = cols[0];
    if (
      above &&
      firstCol &&
      above.cells.length === 1 &&
      above.left >= firstCol.left - above.size &&
      above.y - first.y <= 2 * Math.max(above.size, first.size) &&
      (out[out.length - 1]?.end ?? 0) < from
    ) {
      from--;
      cols = regionColumns(lines.slice(from, end));
    }
    out.push({ start: from, end, rows: formatRegion(lines.slice(from, end), cols) });
  }
  return out;
}
