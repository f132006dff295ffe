/**
 * Size caps on what a caller sends: a question, the conversation history, a search query. Checked before
 * any work is done on the input (no tokenising, segmenting or store access first), so a 1 MB question is
 * refused at once with an `InvalidInputError` naming the field and the cap.
 *
 * Lengths are counted in UTF-16 code units (`string.length`), which is what the caps protect: the work
 * done on a string grows with it. A CJK character counts as one, an emoji as two.
 */
import { InvalidInputError } from "../spec/errors.js";
import type { SessionTurn } from "../spec/store.js";

export interface InputLimits {
  /** Longest question, in characters. Default 4,000. */
  maxQuestionChars: number;
  /** Most earlier turns a call may bring in `history`. Default 50 (25 exchanges). */
  maxHistoryTurns: number;
  /** Most characters in all of `history` together. Default 32,000. */
  maxHistoryChars: number;
  /** Longest search query (`search()` and the model-written `query` of the search tools). Default 1,000. */
  maxQueryChars: number;
}

export const DEFAULT_INPUT_LIMITS: Readonly<InputLimits> = Object.freeze({
  maxQuestionChars: 4_000,
  maxHistoryTurns: 50,
  maxHistoryChars: 32_000,
  maxQueryChars: 1_000,
});

/** The defaults with the caller's values; each must be a positive whole number. */
export function resolveInputLimits(given: Partial<InputLimits> = {}): InputLimits {
  const limits = { ...DEFAULT_INPUT_LIMITS };
  for (const key of Object.keys(DEFAULT_INPUT_LIMITS) as (keyof InputLimits)[]) {
    const value = given[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new InvalidInputError(`inputLimits.${key} must be a whole number of at least 1, not ${String(value)}`, {
        field: `inputLimits.${key}`,
      });
    }
    limits[key] = value;
  }
  return limits;
}

function checkText(field: string, what: string, value: unknown, max: number): string {
  if (typeof value !== "string") {
    throw new InvalidInputError(`the ${what} must be a string, not ${value === null ? "null" : typeof value}`, {
      field,
    });
  }
  if (value.length > max) {
    throw new InvalidInputError(
      `the ${what} is ${value.length.toLocaleString("en-US")} characters long; the limit is ${max.toLocaleString("en-US")} (set inputLimits.${limitName(field)} to change it)`,
      { field, length: value.length, limit: max },
    );
  }
  if (value.trim() === "") throw new InvalidInputError(`the ${what} is empty`, { field });
  return value;
}

function limitName(field: string): keyof InputLimits {
  return field === "question" ? "maxQuestionChars" : "maxQueryChars";
}

/** A question: a non-empty string of at most `maxQuestionChars` characters. */
export function checkQuestion(question: unknown, limits: InputLimits): string {
  return checkText("question", "question", question, limits.maxQuestionChars);
}

/** A search query: a non-empty string of at most `maxQueryChars` characters. */
export function checkQuery(query: unknown, limits: InputLimits): string {
  return checkText("query", "search query", query, limits.maxQueryChars);
}

/** Most passages one `search()` returns. */
export const MAX_SEARCH_K = 100;

/** An ISO date (`2024-01-31`) or date-time (`2024-01-31T12:00:00Z`), as `since` filters compare them. */
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/** True for an ISO date that names a real day (`2024-02-30` does not). */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const [year, month, day] = value.slice(0, 10).split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const SEARCH_MODES = ["keyword", "vector", "hybrid"];

/** `k`, `since` and `mode` of a search: a whole number from 1 to 100, an ISO date, keyword|vector|hybrid. */
export function checkSearchOptions(options: { k?: unknown; since?: unknown; mode?: unknown }): void {
  const { k, since, mode } = options;
  if (mode !== undefined && !SEARCH_MODES.includes(mode as string)) {
    throw new InvalidInputError(`mode must be one of ${SEARCH_MODES.join(", ")}, not ${JSON.stringify(mode)}`, {
      field: "mode",
    });
  }
  if (k !== undefined && (typeof k !== "number" || !Number.isInteger(k) || k < 1 || k > MAX_SEARCH_K)) {
    throw new InvalidInputError(`k must be a whole number from 1 to ${MAX_SEARCH_K}, not ${String(k)}`, {
      field: "k",
    });
  }
  if (since !== undefined && (typeof since !== "string" || !isIsoDate(since))) {
    throw new InvalidInputError(`since must be an ISO date such as 2024-01-31, not ${JSON.stringify(since)}`, {
      field: "since",
    });
  }
}

type Turn = Pick<SessionTurn, "role" | "content">;

/** History a caller passes: at most `maxHistoryTurns` turns of at most `maxHistoryChars` characters in all. */
export function checkHistory(history: unknown, limits: InputLimits): Turn[] {
  if (history === undefined) return [];
  if (!Array.isArray(history)) throw new InvalidInputError("history must be an array of turns", { field: "history" });
  if (history.length > limits.maxHistoryTurns) {
    throw new InvalidInputError(
      `history has ${history.length} turns; the limit is ${limits.maxHistoryTurns} (set inputLimits.maxHistoryTurns to change it)`,
      { field: "history", turns: history.length, limit: limits.maxHistoryTurns },
    );
  }
  let chars = 0;
  for (const [i, turn] of history.entries()) {
    const t = turn as Partial<Turn> | null;
    if (typeof t !== "object" || t === null || (t.role !== "user" && t.role !== "assistant")) {
      throw new InvalidInputError(`history[${i}] must be a turn with role "user" or "assistant"`, {
        field: `history[${i}].role`,
      });
    }
    if (typeof t.content !== "string") {
      throw new InvalidInputError(`history[${i}].content must be a string`, { field: `history[${i}].content` });
    }
    chars += t.content.length;
    if (chars > limits.maxHistoryChars) {
      throw new InvalidInputError(
        `history holds more than ${limits.maxHistoryChars.toLocaleString("en-US")} characters (set inputLimits.maxHistoryChars to change it)`,
        { field: "history", limit: limits.maxHistoryChars },
      );
    }
  }
  return history as Turn[];
}

/**
 * Turns kept from a stored session: the latest ones that fit the caps together with `earlier` (the
 * caller's own history). A session grows with every exchange, and the caller cannot shorten it, so older
 * turns are left out instead of refusing the call; a latest turn longer than the character cap keeps its end.
 */
export function fitSession<T extends Turn>(stored: readonly T[], earlier: readonly Turn[], limits: InputLimits): T[] {
  let turns = limits.maxHistoryTurns - earlier.length;
  let chars = limits.maxHistoryChars - earlier.reduce((n, t) => n + t.content.length, 0);
  const kept: T[] = [];
  for (let i = stored.length - 1; i >= 0 && turns > 0 && chars > 0; i--) {
    const turn = stored[i] as T;
    if (turn.content.length > chars) {
      if (kept.length === 0) kept.unshift({ ...turn, content: turn.content.slice(turn.content.length - chars) });
      break;
    }
    kept.unshift(turn);
    turns--;
    chars -= turn.content.length;
  }
  return kept;
}
