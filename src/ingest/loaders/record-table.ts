import type { TableColumn } from "../../spec/source.js";
import { parseDate } from "../fields.js";
import type { LoadedDocument, LoadedTable } from "../types.js";
import { columnNames } from "./csv-columns.js";

export type Cell = string | number | null;

/** INTEGER when every present value is a safe whole number, REAL when every one is a number, else TEXT. */
function typeOf(values: Cell[]): TableColumn["type"] {
  const present = values.filter((v) => v !== null);
  if (present.length === 0 || present.some((v) => typeof v !== "number")) return "TEXT";
  return present.every((v) => Number.isSafeInteger(v)) ? "INTEGER" : "REAL";
}

/** Longest value written into a row's text; longer ones stay in the table only. */
const MAX_TEXT_CELL = 2_000;

/**
 * Rows of typed cells as one SQL table and one document per row (`<file>#<key>`, `name: value` lines),
 * as the CSV loader makes them. The key column is the first one whose values are all present and unique
 * (`prefer` first), or a `row` column of 1-based row numbers put in front.
 */
export function recordTable(options: {
  /** Table file key and row id base (`data.json`, `book.xlsx#Sheet1`). */
  file: string;
  tableName: string;
  header: string[];
  rows: Cell[][];
  /** Column names to try first as the key (`id`). */
  prefer?: string[];
  /** A fixed key column (name and one value per row) put first, instead of choosing one. */
  key?: { name: string; values: string[] };
  /** Extra metadata per row (its sheet and cell range). */
  metadata?: (row: number) => Record<string, unknown>;
  /** Prefix of each row's title (`Sheet1!A2:D2`). */
  titlePrefix?: (row: number) => string;
}): { table: LoadedTable; docs: LoadedDocument[]; warnings: string[] } {
  let header = [...options.header];
  let rows = options.rows.map((r) => header.map((_, i) => r[i] ?? null));
  const renamed = columnNames(header);
  header = renamed.names;
  const warnings = [...renamed.warnings];
  let keyAt: number;
  const unique = (i: number) => {
    const seen = new Set<string>();
    for (const r of rows) {
      const v = r[i];
      if (v === null || v === "" || seen.has(String(v))) return false;
      seen.add(String(v));
    }
    return true;
  };
  const fixed = options.key;
  const preferred = (options.prefer ?? [])
    .map((p) => header.findIndex((h) => h.toLowerCase() === p))
    .filter((i) => i >= 0);
  const found = fixed ? undefined : [...preferred, ...header.keys()].find((i) => unique(i));
  if (fixed || found === undefined) {
    const name = fixed?.name ?? "row";
    const values = fixed?.values ?? rows.map((_, i) => String(i + 1));
    const names = columnNames([name, ...header]);
    header = names.names;
    rows = rows.map((r, i) => [fixed ? (values[i] ?? "") : i + 1, ...r]);
    keyAt = 0;
  } else keyAt = found;
  const columns: TableColumn[] = header.map((name, i) => ({ name, type: typeOf(rows.map((r) => r[i] ?? null)) }));
  const lower = header.map((h) => h.toLowerCase());
  const titleAt = lower.findIndex((h) => h === "title" || h === "name" || h === "subject");
  const dateAt = lower.findIndex((h) => h === "updated_at" || h === "created_at" || h === "date");
  const pk = header[keyAt] as string;
  const docs: LoadedDocument[] = [];
  const tableRows = rows.map((r, i) => {
    const row: Record<string, Cell> = {};
    columns.forEach((col, c) => {
      const v = r[c] ?? null;
      row[col.name] = v === null ? null : col.type === "TEXT" ? String(v) : v;
    });
    const key = String(r[keyAt]);
    const lines = header.flatMap((name, c) => {
      const v = r[c];
      if (v === null || v === undefined || v === "") return [];
      const text = String(v);
      return text.length > MAX_TEXT_CELL ? [] : [`${name}: ${text}`];
    });
    // A fixed key (a cell range) names no row: the first other value does.
    const named = fixed ? r.find((v, c) => c !== keyAt && v !== null && v !== "") : undefined;
    const title = titleAt >= 0 && r[titleAt] !== null ? String(r[titleAt]) : String(named ?? key);
    const prefix = options.titlePrefix?.(i);
    docs.push({
      id: `${options.file}#${key}`,
      title: prefix ? `${prefix} ${title}` : title,
      text: lines.join("\n"),
      updatedAt: dateAt >= 0 ? parseDate(r[dateAt]) : undefined,
      acl: [],
      metadata: { table: options.tableName, [pk]: key, ...options.metadata?.(i) },
    });
    return row;
  });
  return {
    table: { file: options.file, schema: { name: options.tableName, columns, primaryKey: pk }, rows: tableRows },
    docs,
    warnings,
  };
}
