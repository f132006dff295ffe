import type { TableSchema } from "../../../spec/source.js";
import type { ColumnProfile } from "./types.js";

/** The row-id column every table source has; never a planning target. */
export const ROW_ID = "_id";

const DATE_NAME = /(?:_at|_on|_date|_time|^date|date$)$/i;
const SUFFIX = /\s(?:id|at|on|date|time)$/;

/** Lower case, `_` and `-` as spaces (same length as the input, so offsets carry over). */
export function loosen(text: string): string {
  return text.toLowerCase().replace(/[_-]/g, " ");
}

export function plural(word: string): string {
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(?:s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

/** `tickets` -> `ticket`, `categories` -> `category`, `statuses` -> `status`. */
export function singular(word: string): string {
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ses|xes|zes|ches|shes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us")) return word.slice(0, -1);
  return word;
}

function field(row: Record<string, unknown> | undefined, key: string): unknown {
  return row?.[key];
}

function scalar(value: unknown): string | number | undefined {
  return typeof value === "string" || typeof value === "number" ? value : undefined;
}

/** Column profiles from the schema, enriched by `describe_table` rows when given. `_id` is left out. */
export function profileColumns(table: TableSchema, describe: readonly Record<string, unknown>[] = []): ColumnProfile[] {
  const byName = new Map(describe.map((row) => [String(field(row, "column") ?? field(row, "name")), row]));
  return table.columns
    .filter((column) => column.name !== ROW_ID)
    .map((column) => {
      const row = byName.get(column.name);
      const kind = field(row, "kind");
      const rawValues = field(row, "values");
      const values = Array.isArray(rawValues)
        ? rawValues
            .map(scalar)
            .filter((v) => v !== undefined)
            .map(String)
        : [];
      const numeric = column.type !== "TEXT";
      const dateLike = kind === "date" || (kind === undefined && column.type === "TEXT" && DATE_NAME.test(column.name));
      const name = loosen(column.name).trim().replace(/\s+/g, " ");
      const short = name.replace(SUFFIX, "");
      const bases = short !== name && short.length >= 3 ? [name, short] : [name];
      const profile: ColumnProfile = {
        name: column.name,
        type: column.type,
        values,
        dateLike,
        numeric,
        aliases: [...new Set(bases.flatMap((base) => [base, plural(base)]))],
      };
      const min = scalar(field(row, "min"));
      const max = scalar(field(row, "max"));
      if (min !== undefined) profile.min = min;
      if (max !== undefined) profile.max = max;
      if (dateLike && short !== name) profile.verb = short;
      return profile;
    });
}
