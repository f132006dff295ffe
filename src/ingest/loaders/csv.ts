import { CsvError, parse } from "csv-parse/sync";
import { InvalidInputError, LimitExceededError } from "../../spec/errors.js";
import type { TableColumn } from "../../spec/source.js";
import { decodeText } from "../decode.js";
import { parseDate } from "../fields.js";
import { DEFAULT_INGEST_LIMITS } from "../limits.js";
import { tableName } from "../table-name.js";
import type { LoadedDocument, Loader } from "../types.js";
import { columnNames } from "./csv-columns.js";

type Cell = string | number | null;

const INTEGER = /^[-+]?(0|[1-9]\d*)$/;
const REAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** INTEGER when every non-empty value is a whole number without leading zeros, REAL when numeric, else TEXT. */
export function inferType(values: string[]): TableColumn["type"] {
  const present = values.filter((v) => v !== "");
  if (present.length === 0) return "TEXT";
  if (present.every((v) => INTEGER.test(v) && Number.isSafeInteger(Number(v)))) return "INTEGER";
  if (present.every((v) => REAL.test(v) && !/^[-+]?0\d/.test(v))) return "REAL";
  return "TEXT";
}

function cell(value: string, type: TableColumn["type"]): Cell {
  if (value === "") return null;
  return type === "TEXT" ? value : Number(value);
}

function csvError(relPath: string, text: string, cause: unknown): InvalidInputError {
  const err = cause as CsvError & { lines?: number; column?: number };
  let field: string | undefined;
  if (typeof err.column === "number") {
    try {
      const header = (parse(text, { to_line: 1 }) as string[][])[0];
      field = header?.[err.column];
    } catch {
      field = undefined;
    }
  }
  const where = `${relPath}${err.lines ? `, line ${err.lines}` : ""}${field ? `, field "${field}"` : ""}`;
  return new InvalidInputError(
    `${where}: malformed CSV: ${err.message}`,
    { file: relPath, line: err.lines, field },
    cause,
  );
}

/** Characters of the file the header is first looked for in; grows 4x while the first record is cut off. */
const HEADER_PREFIX = 64 * 1024;

/**
 * The first record, parsed from as small a prefix of the text as holds it, so a huge file's header is checked
 * against the caps before its body is parsed. Linear: the prefix grows geometrically.
 */
function headerOf(text: string, relPath: string): string[] | undefined {
  for (let size = HEADER_PREFIX; ; size *= 4) {
    const prefix = text.slice(0, size);
    const whole = prefix.length === text.length;
    let first: { record: string[]; info: { bytes: number } } | undefined;
    try {
      [first] = parse(prefix, { to: 1, info: true, skip_empty_lines: true, trim: true, bom: true });
    } catch (cause) {
      // A prefix may end inside a quoted field; only the whole text's error is the file's.
      if (!whole) continue;
      if (cause instanceof CsvError) throw csvError(relPath, text, cause);
      throw cause;
    }
    if (whole || (first !== undefined && first.info.bytes < Buffer.byteLength(prefix))) return first?.record;
  }
}

/** A cell over the cap stops the parse at once (csv-parse rethrows what `cast` throws). */
function capCells(relPath: string, cap: number) {
  return (value: string, context: { lines: number; column: number | string }): string => {
    // UTF-8 takes 1 to 3 bytes per UTF-16 unit: count bytes only when the length alone cannot decide.
    if (value.length * 3 > cap && (value.length > cap || Buffer.byteLength(value) > cap)) {
      const size = Buffer.byteLength(value);
      // `lines` is where the cell ends; a quoted cell may span lines, and people look for where it starts.
      const line = context.lines - (value.match(/\n/g)?.length ?? 0);
      throw new LimitExceededError(
        `${relPath}, line ${line}, column ${Number(context.column) + 1}: a cell of ${size} bytes is over the maxCsvCellBytes cap of ${cap}`,
        { file: relPath, line, limit: "maxCsvCellBytes", cap, value: size },
      );
    }
    return value;
  };
}

/**
 * CSV with a header row; the first column is the primary key. Each row becomes a document
 * `<relPath>#<key>` with "column: value" lines, and all rows go to the file's SQL table with inferred column
 * types. Column names SQLite or ferret reserve, empty ones and repeats are renamed (with a warning). Over
 * `maxCsvColumns` or `maxCsvCellBytes` the file is skipped (`LimitExceededError`); an empty or repeated key
 * fails the file (`InvalidInputError`).
 */
export const loadCsv: Loader = async ({ bytes, relPath, tableName: wantedName, limits }) => {
  const caps = limits ?? DEFAULT_INGEST_LIMITS;
  const { text, warnings } = decodeText({ bytes });
  const header = headerOf(text, relPath);
  if (!header || header.length === 0)
    throw new InvalidInputError(`${relPath}: CSV has no header row`, { file: relPath, line: 1, field: "header" });
  if (header.length > caps.maxCsvColumns) {
    throw new LimitExceededError(
      `${relPath}: ${header.length} columns, over the maxCsvColumns cap of ${caps.maxCsvColumns}`,
      { file: relPath, line: 1, limit: "maxCsvColumns", cap: caps.maxCsvColumns, value: header.length },
    );
  }
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    parsed = parse(text, {
      info: true,
      skip_empty_lines: true,
      trim: true,
      bom: true,
      cast: capCells(relPath, caps.maxCsvCellBytes),
    });
  } catch (cause) {
    if (cause instanceof CsvError) throw csvError(relPath, text, cause);
    throw cause;
  }
  const renamed = columnNames(header);
  for (const message of renamed.warnings) warnings.push(message);
  const names = renamed.names;
  const pk = names[0] as string;
  const body = parsed.slice(1);
  const keys = new Map<string, number>();
  for (const { record, info } of body) {
    const key = record[0] ?? "";
    if (key === "")
      throw new InvalidInputError(`${relPath}, line ${info.lines}: empty primary key "${pk}"`, {
        file: relPath,
        line: info.lines,
        field: pk,
      });
    const earlier = keys.get(key);
    if (earlier !== undefined) {
      throw new InvalidInputError(
        `${relPath}, line ${info.lines}: duplicate primary key "${pk}" = "${key}" (first on line ${earlier})`,
        { file: relPath, line: info.lines, field: pk },
      );
    }
    keys.set(key, info.lines);
  }
  const columns: TableColumn[] = names.map((name, i) => ({
    name,
    type: inferType(body.map((r) => r.record[i] ?? "")),
  }));
  const lower = names.map((h) => h.toLowerCase());
  const titleAt = lower.indexOf("title");
  const dateAt = lower.indexOf("updated_at") >= 0 ? lower.indexOf("updated_at") : lower.indexOf("created_at");
  const rows: Record<string, Cell>[] = [];
  const docs: LoadedDocument[] = [];
  const table = wantedName ?? tableName(relPath);
  for (const { record } of body) {
    const key = record[0] as string;
    const row: Record<string, Cell> = {};
    columns.forEach((col, i) => {
      row[col.name] = cell(record[i] ?? "", col.type);
    });
    rows.push(row);
    const lines = names.flatMap((name, i) => (record[i] ? [`${name}: ${record[i]}`] : []));
    docs.push({
      id: `${relPath}#${key}`,
      title: (titleAt >= 0 && record[titleAt]) || key,
      text: lines.join("\n"),
      updatedAt: dateAt >= 0 ? parseDate(record[dateAt]) : undefined,
      acl: [],
      metadata: { table, [pk]: key },
    });
  }
  return { docs, table: { schema: { name: table, columns, primaryKey: pk }, rows }, warnings };
};
