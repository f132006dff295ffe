/**
 * Citation-like markers that are not the engine's own. An answer's `[n]` markers must all be the engine's,
 * pointing at its numbered evidence; a passage (or a model copying one) that brings its own `[3]` would
 * make a claim look cited by a passage that never said it. Claim text loses them before markers are added.
 *
 * What counts, conservatively: bracketed small integers (one to three digits) in square, full-width or
 * lenticular brackets, footnote style or as a list or range: `[3]`, `[12]`, `[1, 2]`, `[1-3]`, `[^3]`,
 * `［３］`, `【3】`, `〔3〕`. Parenthesised numbers such as "(3)" are left alone: legal text and lists use them.
 */
const DIGITS = "[0-9\\uFF10-\\uFF19]{1,3}";
const LIST = `${DIGITS}(?:\\s*[,;\\-\\u2013\\uFF0C]\\s*${DIGITS})*`;
const MARKER = new RegExp(
  `(?:\\[\\^?${LIST}\\]|\\uFF3B\\^?${LIST}\\uFF3D|\\u3010\\s*${LIST}\\s*\\u3011|\\u3014\\s*${LIST}\\s*\\u3015)`,
  "g",
);

/** `text` without the spaces and tabs it ends with (a loop, not a regex: a regex would be quadratic here). */
function trimSpaceEnd(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === " " || text[end - 1] === "\t" || text[end - 1] === "\u00A0")) end--;
  return text.slice(0, end);
}

/** The text without citation-like markers (and the spaces in front of them). Linear in the text. */
export function stripCitationMarkers(text: string): string {
  let out = "";
  let last = 0;
  for (const marker of text.matchAll(MARKER)) {
    // Spaces before a marker go with it; the regex does not match them, so a long run of spaces costs one pass.
    out += trimSpaceEnd(text.slice(last, marker.index));
    last = marker.index + marker[0].length;
  }
  return out + text.slice(last);
}
