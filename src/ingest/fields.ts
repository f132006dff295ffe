/** Small normalisers for fields that arrive from front matter, CSV cells and JSON lines. */

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

/** JSON-safe copy of front-matter values: dates become ISO text, so hashing and storage see plain data. */
export function plain(value: unknown): unknown {
  if (value instanceof Date) return parseDate(value) ?? null;
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}
