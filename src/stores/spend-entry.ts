import { InvalidInputError } from "../spec/errors.js";
import type { SpendEntry } from "../spec/keys.js";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A `spend` row as both stores hold it (and as the SQLite-to-PostgreSQL copy carries it). */
export interface SpendRow {
  tenant: string;
  day: string;
  key_id: string;
  usd: number;
  runs: number;
}

/** Refuses a spend entry whose day is not `YYYY-MM-DD` or whose amount is negative or not finite. */
export function checkSpendEntry(entry: SpendEntry): void {
  if (!DAY.test(entry.day)) throw new InvalidInputError(`day must be YYYY-MM-DD, got "${entry.day}"`, { field: "day" });
  if (!Number.isFinite(entry.usd) || entry.usd < 0)
    throw new InvalidInputError(`spend must be a non-negative number, got ${entry.usd}`, { field: "usd" });
}
