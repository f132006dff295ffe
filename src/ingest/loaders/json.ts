import { InvalidInputError, LimitExceededError } from "../../spec/errors.js";
import { decodeText } from "../decode.js";
import { parseAcl, parseDate } from "../fields.js";
import { DEFAULT_INGEST_LIMITS } from "../limits.js";
import { tableName } from "../table-name.js";
import type { LoadedDocument, Loader } from "../types.js";
import { type Cell, recordTable } from "./record-table.js";

/** Nesting followed when flattening; deeper values are kept as JSON text. */
const MAX_DEPTH = 16;
/** A string this long in every element makes the array documents rather than rows. */
const DOCUMENT_TEXT_CHARS = 200;
const TEXT_FIELDS = ["text", "body", "content"];

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * A value's scalar leaves under dotted keys (`owner.name`, `tags.0`); an array of scalars is one
 * comma-joined value. Fails past `maxKeys` keys, so a hostile file cannot make millions of columns.
 */
export function flatten(value: unknown, maxKeys: number, onOver: () => never): Map<string, Cell> {
  const out = new Map<string, Cell>();
  const put = (key: string, v: Cell) => {
    out.set(key, v);
    if (out.size > maxKeys) onOver();
  };
  const walk = (v: unknown, key: string, depth: number) => {
    if (v === null || v === undefined) put(key, null);
    else if (typeof v === "number") put(key, Number.isFinite(v) ? v : null);
    else if (typeof v === "boolean") put(key, v ? 1 : 0);
    else if (typeof v === "string") put(key, v);
    else if (depth >= MAX_DEPTH) put(key, JSON.stringify(v));
    else if (Array.isArray(v) && v.every((x) => x === null || typeof x !== "object"))
      put(key, v.filter((x) => x !== null).join(", "));
    else for (const [k, x] of Object.entries(v as object)) walk(x, key === "" ? k : `${key}.${k}`, depth + 1);
  };
  walk(value, "", 0);
  return out;
}

/**
 * JSON. An array of objects is either documents (every object has a long `text`, `body` or `content`:
 * `<path>#<id>` each, like JSON Lines) or rows (one SQL table named after the file, and a document per row
 * `<path>#<key>`); nested fields are flattened to dotted keys (`owner.name`). Anything else is one
 * document of `key: value` lines. More keys than `maxCsvColumns` skips the file.
 */
export const loadJson: Loader = async ({ bytes, relPath, tableName: wanted, limits }) => {
  const caps = limits ?? DEFAULT_INGEST_LIMITS;
  const { text, warnings } = decodeText({ bytes });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const message = cause instanceof RangeError ? "nested too deeply to parse" : (cause as Error).message;
    const pos = /position (\d+)/.exec(message);
    const line = pos ? text.slice(0, Number(pos[1])).split("\n").length : undefined;
    throw new InvalidInputError(
      `${relPath}${line ? `, line ${line}` : ""}: invalid JSON: ${message}`,
      { file: relPath, line },
      cause,
    );
  }
  const cap = caps.maxCsvColumns;
  const over = (): never => {
    throw new LimitExceededError(`${relPath}: more than ${cap} distinct fields, over the maxCsvColumns cap`, {
      file: relPath,
      limit: "maxCsvColumns",
      cap,
    });
  };
  if (Array.isArray(value) && value.length > 0 && value.every(isRecord)) {
    const textField = TEXT_FIELDS.find((f) =>
      value.every((o) => typeof o[f] === "string" && (o[f] as string).length >= DOCUMENT_TEXT_CHARS),
    );
    if (textField) return { docs: documents(value, textField, relPath, cap, over), warnings };
    const flat = value.map((o) => flatten(o, cap, over));
    const header: string[] = [];
    const seen = new Set<string>();
    for (const row of flat)
      for (const key of row.keys())
        if (!seen.has(key)) {
          seen.add(key);
          header.push(key);
          if (header.length > cap) over();
        }
    const name = wanted ?? tableName(relPath);
    const made = recordTable({
      file: relPath,
      tableName: name,
      header,
      rows: flat.map((row) => header.map((h) => row.get(h) ?? null)),
      prefer: ["id", "key"],
      metadata: (i) => ({ element: i + 1 }),
    });
    return { docs: made.docs, table: { ...made.table, file: undefined }, warnings: [...warnings, ...made.warnings] };
  }
  const flat = flatten(value, cap, over);
  const lines = [...flat]
    .filter(([, v]) => v !== null && v !== "")
    .map(([k, v]) => (k === "" ? String(v) : `${k}: ${v}`));
  return {
    docs: [
      {
        id: relPath,
        title: relPath.slice(relPath.lastIndexOf("/") + 1),
        text: lines.join("\n"),
        acl: [],
        metadata: {},
      },
    ],
    warnings,
  };
};

function documents(
  items: Record<string, unknown>[],
  textField: string,
  relPath: string,
  cap: number,
  over: () => never,
): LoadedDocument[] {
  const seen = new Set<string>();
  return items.map((item, i) => {
    const { [textField]: body, id, title, updated_at: updated, acl, ...rest } = item;
    let key = typeof id === "string" || typeof id === "number" ? String(id).trim() : "";
    if (key === "" || seen.has(key)) key = String(i + 1);
    seen.add(key);
    const fields = flatten(rest, cap, over);
    const lines = [...fields]
      .filter(([, v]) => v !== null && v !== "" && String(v).length <= 200)
      .map(([k, v]) => `${k}: ${v}`);
    return {
      id: `${relPath}#${key}`,
      title: typeof title === "string" && title.trim() !== "" ? title.trim() : key,
      text: [String(body).trim(), lines.join("\n")].filter(Boolean).join("\n\n"),
      updatedAt: parseDate(updated),
      acl: parseAcl(acl),
      metadata: { element: i + 1, ...Object.fromEntries(fields) },
    };
  });
}
