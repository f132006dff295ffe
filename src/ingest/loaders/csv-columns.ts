/** Names SQLite or ferret give a meaning of their own: the row id (`rowid`, `oid`, `_rowid_`) and ferret's `_id`. */
export const RESERVED_COLUMN_NAMES: ReadonlySet<string> = new Set(["_id", "rowid", "oid", "_rowid_"]);

/**
 * Column names a table can use, from a CSV header: an empty name becomes `column_<n>` (its 1-based position),
 * and a reserved name or one already used (SQLite compares identifiers ignoring case, so `Name` repeats
 * `name`) gets the first free `_2`, `_3`, ... suffix. Each change comes back as a warning naming the column.
 */
export function columnNames(header: readonly string[]): { names: string[]; warnings: string[] } {
  /** Lower-cased name taken -> the 0-based column that took it. */
  const used = new Map<string, number>();
  const free = (name: string) => !used.has(name.toLowerCase()) && !RESERVED_COLUMN_NAMES.has(name.toLowerCase());
  /** Next suffix to try per name, so a header repeating one name n times costs O(n), not O(n^2). */
  const next = new Map<string, number>();
  const names: string[] = [];
  const warnings: string[] = [];
  header.forEach((raw, i) => {
    const lower = raw.toLowerCase();
    let name = raw === "" ? `column_${i + 1}` : raw;
    const why =
      raw === ""
        ? "has no name"
        : RESERVED_COLUMN_NAMES.has(lower)
          ? `"${raw}" is reserved for the row id`
          : used.has(lower)
            ? `"${raw}" repeats column ${(used.get(lower) ?? 0) + 1}`
            : "";
    if (!free(name)) {
      const base = name.toLowerCase();
      let n = next.get(base) ?? 2;
      while (!free(`${name}_${n}`)) n++;
      next.set(base, n + 1);
      name = `${name}_${n}`;
    }
    if (why !== "") warnings.push(`line 1, column ${i + 1}: ${why}; renamed "${name}"`);
    used.set(name.toLowerCase(), i);
    names.push(name);
  });
  return { names, warnings };
}
