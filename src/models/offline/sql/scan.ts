import type { SqlDialect } from "../../../spec/sql-dialect.js";
import type { Mask } from "./mask.js";
import type { ColumnProfile } from "./types.js";

/** The question as the planner reads it. */
export interface Scan {
  /** NFKC, lower case. */
  text: string;
  /** NFKC as written (same offsets as `text`; codes like `IT` are matched here, case and all). */
  original: string;
  /** `text` with `_` and `-` as spaces (same offsets). */
  loose: string;
  mask: Mask;
  columns: ColumnProfile[];
  /** The SQL dialect of the store that will run the plan. */
  dialect: SqlDialect;
}

export interface VerbHit {
  column: ColumnProfile;
  from: number;
  to: number;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Words naming a date column by its verb: `created`, `creation`, `created_at` for `created_at`. */
export function verbHits(scan: Omit<Scan, "dialect">): VerbHit[] {
  const out: VerbHit[] = [];
  for (const m of scan.text.matchAll(/[\p{L}_]+/gu)) {
    // `unresolved` names `resolved_at` too: the hit then starts after `un`.
    const un = m[0].startsWith("un") && m[0].length > 6 ? 2 : 0;
    for (const skip of un ? [0, un] : [0]) {
      const word = m[0].slice(skip);
      const from = (m.index ?? 0) + skip;
      for (const column of scan.columns) {
        if (!column.verb) continue;
        const root = column.verb.replace(/(?:ed|e|d)$/, "");
        const need = Math.max(4, root.length - 1);
        if (word === column.name.toLowerCase() || commonPrefix(word, column.verb) >= need) {
          out.push({ column, from, to: from + word.length });
        }
      }
    }
  }
  return out;
}
