/** Text matching for scoring: case-insensitive, whitespace-normalised, NFKC, invisible characters ignored. */
import { stripInvisible } from "../../safety/visible-text.js";

const ALNUM = /[\p{L}\p{N}]/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export function normaliseText(text: string): string {
  return stripInvisible(text).normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

/** Removes citation markers such as `[1]` or `[2, 3]`, so a keyword like "2" is not matched by a marker. */
export function stripCitationMarkers(text: string): string {
  return text.replace(/\[\d+(?:\s*[,;]\s*\d+)*\]/g, " ");
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && ALNUM.test(char) && !CJK.test(char);
}

const isDigit = (char: string | undefined) => char !== undefined && /\p{N}/u.test(char);
const isSeparator = (char: string | undefined) => char === "." || char === ",";

/** The match may not start inside a word or a number ("45" in "145", "open" in "reopen", "45" in "0.45"). */
function startsClean(text: string, at: number, first: string): boolean {
  if (!isWordChar(first)) return true;
  const before = text[at - 1];
  if (isWordChar(before)) return false;
  return !(isDigit(first) && isSeparator(before) && isDigit(text[at - 2]));
}

/** A match ending in a digit may not run on into a number ("20" in "2026", "2" in "2.5"); words may inflect. */
function endsClean(text: string, end: number, last: string): boolean {
  if (!isDigit(last)) return true;
  const after = text[end];
  if (isDigit(after)) return false;
  return !(isSeparator(after) && isDigit(text[end + 1]));
}

/**
 * True when `keyword` occurs in `text` on token boundaries: it may not start inside a word or number, and a
 * keyword ending in a digit may not run on into a longer number. So "20" does not match "2026" and "45" does
 * not match "145" or "0.45", while "schema change" matches "schema changes". CJK text has no word
 * boundaries and always matches.
 */
export function containsKeyword(text: string, keyword: string): boolean {
  const haystack = normaliseText(text);
  const needle = normaliseText(keyword);
  if (needle === "") return false;
  const first = needle[0]!;
  const last = needle[needle.length - 1]!;
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(needle, from);
    if (at < 0) return false;
    if (startsClean(haystack, at, first) && endsClean(haystack, at + needle.length, last)) return true;
    from = at + 1;
  }
}

/** Plain case-insensitive, whitespace-normalised substring test (strict: used for leaks). */
export function containsSubstring(text: string, needle: string): boolean {
  const n = normaliseText(needle);
  return n !== "" && normaliseText(text).includes(n);
}
