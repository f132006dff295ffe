import type { CellValue, Worksheet } from "exceljs";
import { InvalidInputError, LimitExceededError } from "../../spec/errors.js";
import { type ExcelJs, importExcelJs } from "../../util/optional-import.js";
import { DEFAULT_INGEST_LIMITS } from "../limits.js";
import { tableName } from "../table-name.js";
import type { LoadedDocument, LoadedTable, Loader } from "../types.js";
import { checkZip } from "../zip-guard.js";
import { type Cell, recordTable } from "./record-table.js";

let excel: Promise<ExcelJs> | undefined;

/** exceljs is large and an optional peer dependency: load it on the first workbook only (missing, the error names it). */
function loadExcelJs(): Promise<ExcelJs> {
  excel ??= importExcelJs("ingesting .xlsx files").catch((error: unknown) => {
    excel = undefined;
    throw error;
  });
  return excel;
}

/** `A`, `B`, ... `Z`, `AA`: a 1-based column number as Excel writes it. */
export function columnLetter(n: number): string {
  let out = "";
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) out = String.fromCharCode(65 + ((c - 1) % 26)) + out;
  return out;
}

/** A date as `YYYY-MM-DD`, or the full ISO time when it has one. */
function dateText(d: Date): string {
  const iso = d.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
}

/** A cell's value as ferret stores it: numbers stay numbers, dates ISO text, a formula its cached result. */
export function cellValue(value: CellValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string") return value.trim() === "" ? null : value.trim();
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : dateText(value);
  if ("richText" in value) return cellValue(value.richText.map((r) => r.text).join(""));
  if ("formula" in value || "sharedFormula" in value) return cellValue((value as { result?: CellValue }).result);
  if ("text" in value) return cellValue(value.text as CellValue);
  if ("error" in value) return null;
  return null;
}

interface SheetGrid {
  /** 1-based row numbers of data rows, with their cells (one per column). */
  rows: { at: number; cells: Cell[] }[];
  header: string[];
  first: number;
  last: number;
}

/** The sheet's used columns, its header (merged header cells spread over their span, two rows when a group header is merged over sub-headers) and data rows. */
function gridOf(
  sheet: Worksheet,
  relPath: string,
  caps: { maxCsvColumns: number; maxCsvCellBytes: number },
): SheetGrid | undefined {
  const values = new Map<number, Cell[]>();
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  sheet.eachRow({ includeEmpty: false }, (row, r) => {
    const cells: Cell[] = [];
    row.eachCell({ includeEmpty: false }, (cell, c) => {
      if (c > caps.maxCsvColumns)
        throw new LimitExceededError(
          `${relPath}, sheet "${sheet.name}": column ${c}, over the maxCsvColumns cap of ${caps.maxCsvColumns}`,
          { file: relPath, limit: "maxCsvColumns", cap: caps.maxCsvColumns, value: c },
        );
      const v = cellValue(cell.isMerged ? cell.master.value : cell.value);
      if (v === null) return;
      if (typeof v === "string" && v.length * 3 > caps.maxCsvCellBytes && Buffer.byteLength(v) > caps.maxCsvCellBytes)
        throw new LimitExceededError(
          `${relPath}, sheet "${sheet.name}", cell ${cell.address}: over the maxCsvCellBytes cap of ${caps.maxCsvCellBytes}`,
          { file: relPath, limit: "maxCsvCellBytes", cap: caps.maxCsvCellBytes },
        );
      cells[c] = v;
      first = Math.min(first, c);
      last = Math.max(last, c);
    });
    if (cells.length > 0) values.set(r, cells);
  });
  const rowNumbers = [...values.keys()].sort((a, b) => a - b);
  const headAt = rowNumbers[0];
  if (headAt === undefined) return undefined;
  const span = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  const head = values.get(headAt) ?? [];
  const next = rowNumbers[1] !== undefined ? values.get(rowNumbers[1]) : undefined;
  // A group header merged across columns over a row of sub-headers (text in every one of its columns).
  const grouped = span.some((c) => {
    const cell = sheet.getCell(headAt, c);
    return cell.isMerged && cell.master.address !== cell.address;
  });
  const twoRows =
    grouped && next !== undefined && span.every((c) => next[c] === undefined || typeof next[c] === "string");
  const header = span.map((c) => {
    const top = head[c] === undefined ? "" : String(head[c]);
    const sub = twoRows && next?.[c] !== undefined ? String(next[c]) : "";
    return top !== "" && sub !== "" && top !== sub ? `${top} ${sub}` : top || sub;
  });
  const body = rowNumbers.slice(twoRows ? 2 : 1);
  return {
    header,
    first,
    last,
    rows: body.map((at) => ({ at, cells: span.map((c) => values.get(at)?.[c] ?? null) })),
  };
}

/**
 * Excel workbooks (`.xlsx`) through exceljs, after the zip guard. Every sheet with a header row becomes an
 * SQL table (`<file>_<sheet>`, keyed by a `cells` column holding the row's range) and a document per row,
 * `<path>#<sheet>#A2:D2`, titled with `Sheet!A2:D2`: the citation names the sheet and cell range. Merged
 * header cells name every column they span; a group header merged over sub-headers joins them (`Q1 Units`).
 * Cells keep their types: numbers, dates (ISO), a formula's cached result.
 */
export const loadXlsx: Loader = async ({ bytes, relPath, tableName: wanted, limits }) => {
  const caps = limits ?? DEFAULT_INGEST_LIMITS;
  const parts = await checkZip({
    bytes,
    relPath,
    kind: ".xlsx file",
    limits: caps,
    keep: (n) => n === "xl/workbook.xml",
  });
  if (!parts.has("xl/workbook.xml"))
    throw new InvalidInputError(`${relPath}: not a readable .xlsx file (no xl/workbook.xml part)`, { file: relPath });
  const { Workbook } = await loadExcelJs();
  const book = new Workbook();
  try {
    await book.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as never);
  } catch (cause) {
    throw new InvalidInputError(
      `${relPath}: not a readable .xlsx file (${(cause as Error).message})`,
      { file: relPath },
      cause,
    );
  }
  const base = wanted ?? tableName(relPath);
  const docs: LoadedDocument[] = [];
  const tables: LoadedTable[] = [];
  const warnings: string[] = [];
  for (const sheet of book.worksheets) {
    const grid = gridOf(sheet, relPath, caps);
    if (!grid || grid.rows.length === 0) {
      warnings.push(`sheet "${sheet.name}" has no data rows; left out`);
      continue;
    }
    const ranges = grid.rows.map((r) => `${columnLetter(grid.first)}${r.at}:${columnLetter(grid.last)}${r.at}`);
    const made = recordTable({
      file: `${relPath}#${sheet.name}`,
      tableName: tableName(`${base}_${sheet.name}`),
      header: grid.header,
      rows: grid.rows.map((r) => r.cells),
      key: { name: "cells", values: ranges },
      metadata: (i) => ({ sheet: sheet.name, range: ranges[i], locator: `${sheet.name}!${ranges[i]}` }),
      titlePrefix: (i) => `${sheet.name}!${ranges[i]}`,
    });
    docs.push(...made.docs);
    tables.push(made.table);
    for (const w of made.warnings) warnings.push(`sheet "${sheet.name}", ${w}`);
  }
  return { docs, tables, warnings };
};
