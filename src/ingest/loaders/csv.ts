import { CsvError, parse } from "csv-parse/sync";
import { InvalidInputError } from "../../spec/errors.js";
import type { TableColumn } from "../../spec/source.js";
import { decodeText } from "../decode.js";
import { parseDate, titleFromPath } from "../fields.js";
import type { LoadedDocument, Loader } from "../types.js";

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

/**
 * CSV with a header row; the first column is the primary key. Each row becomes a document
 * `<relPath>#<key>` with "column: value" lines, and all rows go to the SQL table with inferred column types.
 */
export const loadCsv: Loader = async ({ bytes, relPath, tableName }) => {
  const { text, warnings } = decodeText({ bytes });
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    parsed = parse(text, { info: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (cause) {
    if (cause instanceof CsvError) throw csvError(relPath, text, cause);
    throw cause;
  }
  const header = parsed[0]?.record;
  if (!header || header.length === 0)
    throw new InvalidInputError(`${relPath}: CSV has no header row`, { file: relPath, line: 1, field: "header" });
  const seen = new Set<string>();
  header.forEach((name, i) => {
    if (name === "")
      throw new InvalidInputError(`${relPath}, line 1: column ${i + 1} has an empty name`, {
        file: relPath,
        line: 1,
        field: `column ${i + 1}`,
      });
    if (seen.has(name))
      throw new InvalidInputError(`${relPath}, line 1: duplicate column "${name}"`, {
        file: relPath,
        line: 1,
        field: name,
      });
    seen.add(name);
  });
  const pk = header[0] as string;
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
  const columns: TableColumn[] = header.map((name, i) => ({
    name,
    type: inferType(body.map((r) => r.record[i] ?? "")),
  }));
  const lower = header.map((h) => h.toLowerCase());
  const titleAt = lower.indexOf("title");
  const dateAt = lower.indexOf("updated_at") >= 0 ? lower.indexOf("updated_at") : lower.indexOf("created_at");
  const rows: Record<string, Cell>[] = [];
  const docs: LoadedDocument[] = [];
  const table = tableName ?? titleFromPath(relPath);
  for (const { record } of body) {
    const key = record[0] as string;
    const row: Record<string, Cell> = {};
    columns.forEach((col, i) => {
      row[col.name] = cell(record[i] ?? "", col.type);
    });
    rows.push(row);
    const lines = header.flatMap((name, i) => (record[i] ? [`${name}: ${record[i]}`] : []));
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
