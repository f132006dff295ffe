/** SQL quoting for identifiers and values the planner writes. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function literal(value: string | number): string {
  return typeof value === "number" ? String(value) : `'${value.replaceAll("'", "''")}'`;
}

/** `a`, `a and b`, `a, b and c`. */
export function joinWords(items: readonly string[], last = "and"): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${last} ${items[items.length - 1]}`;
}
