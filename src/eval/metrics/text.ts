/** Text matching for scoring: case-insensitive, whitespace-normalised, NFKC. */

const ALNUM = /[\p{L}\p{N}]/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export function normaliseText(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

/** Removes citation markers such as `[1]` or `[2, 3]`, so a keyword like "2" is not matched by a marker. */
export function stripCitationMarkers(text: string): string {
  return text.replace(/\[\d+(?:\s*[,;]\s*\d+)*\]/g, " ");
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && ALNUM.test(char) && !CJK.test(char);
}

/**
 * True when `keyword` occurs in `text` as a whole token sequence: where the keyword starts or ends with a
 * letter or digit, the neighbouring character must not be one (so "20" does not match "2026", and "45"
 * does not match "145"). CJK characters have no word boundaries and always match.
 */
export function containsKeyword(text: string, keyword: string): boolean {
  const haystack = normaliseText(text);
  const needle = normaliseText(keyword);
  if (needle === "") return false;
  const checkStart = isWordChar(needle[0]);
  const checkEnd = isWordChar(needle[needle.length - 1]);
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(needle, from);
    if (at < 0) return false;
    const before = at > 0 ? haystack[at - 1] : undefined;
    const after = haystack[at + needle.length];
    if ((!checkStart || !isWordChar(before)) && (!checkEnd || !isWordChar(after))) return true;
    from = at + 1;
  }
}

/** Plain case-insensitive, whitespace-normalised substring test (strict: used for leaks). */
export function containsSubstring(text: string, needle: string): boolean {
  const n = normaliseText(needle);
  return n !== "" && normaliseText(text).includes(n);
}
