/**
 * JSON with object keys sorted and undefined members left out, so the order in which arguments were written
 * never changes a key. `mapString` rewrites every string first (e.g. to compare case-insensitively).
 */
export function stableJson(value: unknown, mapString: (s: string) => string = (s) => s): string {
  if (typeof value === "string") return JSON.stringify(mapString(value));
  if (Array.isArray(value)) return `[${value.map((v) => stableJson(v, mapString)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v, mapString)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
