import type { TableSchema } from "../../../spec/source.js";
import { synonymsOf } from "./cues.js";
import type { ColumnProfile } from "./types.js";

/** The row-id column every table source has; never a planning target. */
export const ROW_ID = "_id";

const DATE_NAME = /(?:_at|_on|_date|_time|^date|date$)$/i;
const SUFFIX = /\s(?:id|at|on|date|time)$/;
/** Unit suffixes of a measure's name: `weight_kg` is the weight, `declared_value_eur` the declared value. */
const UNIT_SUFFIX = /\s(?:kg|g|t|eur|usd|gbp|jpy|chf|pct|percent|km|m|h|min|s|ms|days)$/;
const BOOLEAN_VALUES = new Set(["yes", "no", "true", "false", "y", "n", "ja", "nein"]);

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

/**
 * Column profiles from the schema, enriched by `describe_table` rows when given, and by every distinct value
 * of a column when the distinct-values probe read them (`describe_table` samples only the most frequent).
 * `_id` is left out.
 */
export function profileColumns(
  table: TableSchema,
  describe: readonly Record<string, unknown>[] = [],
  distinctValues: ReadonlyMap<string, readonly string[]> = new Map(),
): ColumnProfile[] {
  const byName = new Map(describe.map((row) => [String(field(row, "column") ?? field(row, "name")), row]));
  const profiles = table.columns
    .filter((column) => column.name !== ROW_ID)
    .map((column) => {
      const row = byName.get(column.name);
      const kind = field(row, "kind");
      const rawValues = field(row, "values");
      const sampled = Array.isArray(rawValues)
        ? rawValues
            .map(scalar)
            .filter((v) => v !== undefined)
            .map(String)
        : [];
      const values = [...new Set([...sampled, ...(distinctValues.get(column.name) ?? [])])];
      const numeric = column.type !== "TEXT";
      const dateLike = kind === "date" || (kind === undefined && column.type === "TEXT" && DATE_NAME.test(column.name));
      const name = loosen(column.name).trim().replace(/\s+/g, " ");
      const short = name.replace(SUFFIX, "").replace(UNIT_SUFFIX, "");
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
      const nulls = Number(field(row, "nulls"));
      if (Number.isFinite(nulls)) profile.nulls = nulls;
      const distinct = Number(field(row, "distinct"));
      if (Number.isFinite(distinct)) profile.distinct = distinct;
      if (values.length > 0 && values.length <= 2 && values.every((v) => BOOLEAN_VALUES.has(v.toLowerCase()))) {
        profile.boolean = true;
      }
      return profile;
    });
  addHeadAliases(profiles);
  for (const p of profiles) p.aliases = [...new Set(p.aliases.flatMap((a) => [a, ...synonymsOf(a)]))];
  return profiles;
}

/**
 * `origin_hub` also goes by `hub`, `destination_country` by `country`: the last word of a column's name names
 * it when no other column ends (or is named) the same. Date columns keep their verbs instead.
 */
function addHeadAliases(profiles: ColumnProfile[]): void {
  const heads = new Map<string, ColumnProfile[]>();
  for (const p of profiles) {
    if (p.dateLike) continue;
    const base = p.aliases[p.aliases.length > 2 ? 2 : 0] ?? "";
    const head = base.split(" ").at(-1) ?? "";
    if (head === base || head.length < 3) continue;
    heads.set(head, [...(heads.get(head) ?? []), p]);
  }
  const taken = new Set(profiles.flatMap((p) => p.aliases));
  for (const [head, owners] of heads) {
    if (owners.length !== 1 || taken.has(head)) continue;
    owners[0]!.aliases.push(head, plural(head));
  }
}
