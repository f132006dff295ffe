/** Small normalisers for fields that arrive from front matter, CSV cells and JSON lines. */

import { LimitExceededError } from "../spec/errors.js";

/** An ACL from a list or a comma-separated string; roles trimmed, empties dropped, de-duplicated. */
export function parseAcl(value: unknown): string[] {
  const parts = Array.isArray(value) ? value.map((v) => String(v)) : typeof value === "string" ? value.split(",") : [];
  return [...new Set(parts.map((p) => p.trim()).filter((p) => p.length > 0))];
}

/** A date as ISO text: `YYYY-MM-DD` for a date at midnight UTC, else a full timestamp; undefined if not a date. */
export function parseDate(value: unknown): string | undefined {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return undefined;
    const iso = value.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
  }
  if (typeof value === "number" && Number.isFinite(value)) return parseDate(new Date(value));
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  if (!/^\d{4}-\d{2}-\d{2}[T ]/.test(text)) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : text;
}

/** The file name without folder or extension: the title of last resort. */
export function titleFromPath(relPath: string): string {
  const base = relPath.split("/").pop() ?? relPath;
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

/** The first level-1 ATX heading (`# Title`) of Markdown text, else the first heading of any level. */
export function firstHeading(text: string): string | undefined {
  const match = /^#[ \t]+(.+?)[ \t#]*$/m.exec(text) ?? /^#{2,6}[ \t]+(.+?)[ \t#]*$/m.exec(text);
  return match?.[1]?.trim() || undefined;
}

export interface PlainOptions {
  value: unknown;
  /** Deepest nesting copied (the top value is depth 0). */
  maxDepth: number;
  /** Values copied in all, counting every visit: an alias used twice counts twice. */
  maxNodes: number;
  /** Named in the error when a budget is exceeded. */
  file?: string;
}

/**
 * JSON-safe copy of front-matter values: dates become ISO text, big integers decimal text, so hashing
 * and storage see plain data. The copy is bounded in depth and in values visited, because parsed
 * YAML may share one aliased structure many times over and a copy expands every reference.
 */
export function plain(options: PlainOptions): unknown {
  const { maxDepth, maxNodes, file } = options;
  let nodes = 0;
  const over = (limit: "maxFrontMatterNodes" | "maxFrontMatterDepth", cap: number, what: string) =>
    new LimitExceededError(`${file ? `${file}: ` : ""}front matter ${what} (cap ${limit} = ${cap})`, {
      file,
      limit,
      cap,
    });
  const copy = (value: unknown, depth: number): unknown => {
    if (++nodes > maxNodes) throw over("maxFrontMatterNodes", maxNodes, `has more than ${maxNodes} values`);
    if (depth > maxDepth) throw over("maxFrontMatterDepth", maxDepth, `is nested deeper than ${maxDepth} levels`);
    if (value instanceof Date) return parseDate(value) ?? null;
    if (typeof value === "bigint") return value.toString();
    if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
    if (Array.isArray(value)) return value.map((v) => copy(v, depth + 1));
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value))
        Object.defineProperty(out, k, {
          value: copy(v, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return out;
    }
    if (value === undefined || typeof value === "function" || typeof value === "symbol") return null;
    return value;
  };
  return copy(options.value, 0);
}
