/**
 * Parsers for command-line flag values. A bad value is a commander `InvalidArgumentError`, which commander
 * reports naming the flag (`error: option '--k <n>' argument 'abc' is invalid. ...`); `main` turns every
 * usage error into exit code 2. Values are checked here, before anything opens the store, so no bad value
 * reaches SQLite as a raw driver error.
 */
import { InvalidArgumentError } from "commander";
import { PRINCIPAL_PATTERN } from "../config/config-schema.js";
import { parseRate } from "../keys/api-keys.js";
import { isIsoDate, MAX_SEARCH_K } from "../safety/input-limits.js";

/** A whole number from `min` to `max` (digits only: "2.5", "1e3", "0x10" and "" are refused). */
export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    const n = /^\s*\d{1,16}\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
      throw new InvalidArgumentError(`It must be a whole number ${range}.`);
    }
    return n;
  };
}

/** A number greater than zero (decimals allowed: `--max-file-mb 0.5`). */
export function positiveNumber(value: string): number {
  const n = /^\s*\d{0,16}(\.\d{1,16})?\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("It must be a number greater than 0.");
  return n;
}

/** A share from 0 to 1 (`--min-confidence 0.4`). */
export function unitInterval(value: string): number {
  const n = /^\s*\d{0,16}(\.\d{1,16})?\s*$/.test(value) && /\d/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError("It must be a number from 0 to 1.");
  return n;
}

/** `--k`: passages to return, as the library allows. */
export const kValue = wholeNumber(1, MAX_SEARCH_K);

/** An ISO date such as 2024-01-31 (optionally with a time). */
export function isoDate(value: string): string {
  if (!isIsoDate(value)) throw new InvalidArgumentError("It must be an ISO date such as 2024-01-31.");
  return value;
}

/** One of a fixed set of words. */
export function oneOf<T extends string>(choices: readonly T[]): (value: string) => T {
  return (value) => {
    if (!choices.includes(value as T)) throw new InvalidArgumentError(`It must be one of ${choices.join(", ")}.`);
    return value as T;
  };
}

/** A repeatable flag whose values are checked by `parse`. */
export function collectWith<T>(parse: (value: string) => T): (value: string, previous?: T[]) => T[] {
  return (value, previous = []) => [...previous, parse(value)];
}

/** An http(s) URL (`--base-url`). */
export function httpUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {}
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new InvalidArgumentError("It must be an http:// or https:// URL.");
  }
  return value;
}

/** `TENANT:USER:ROLE,ROLE` (`--as`; roles may be empty). */
export function principalSpec(value: string): string {
  if (!PRINCIPAL_PATTERN.test(value))
    throw new InvalidArgumentError("It must be TENANT:USER:ROLE,ROLE (roles may be empty).");
  return value;
}

/** A rate such as 60/min (`--rate`). */
export function rateSpec(value: string): string {
  try {
    parseRate(value);
  } catch {
    throw new InvalidArgumentError("It must look like 60/min, 10/s, 1000/hour or 5000/day.");
  }
  return value;
}
