/**
 * Text as a reader (or a model) sees it, for detecting instruction-like phrases that try to hide from a
 * pattern matcher: "ig\u200Bnore previous instructions", full-width "ＩＧＮＯＲＥ", "ïgnörë".
 *
 * Two forms, both linear in the input:
 * - `stripInvisible` removes characters that render as nothing (Unicode Default_Ignorable_Code_Point:
 *   zero-width space/joiners U+200B–U+200F, word joiner and invisible operators U+2060–U+2064, BOM
 *   U+FEFF, soft hyphen U+00AD, bidi embeddings, overrides and isolates U+202A–U+202E, U+2066–U+2069,
 *   variation selectors, and the tag characters U+E0000–U+E007F that some models read as hidden ASCII).
 *   This is what fenced text shows, and what quote checking removes on both sides.
 * - `detectionView` additionally folds each character to its compatibility decomposition (NFKD, the
 *   decomposing half of NFKC) without combining marks, and keeps, for every character of the view, where
 *   it came from, so a phrase found in the view can be marked at the right place in the shown text.
 *   Folding character by character keeps the mapping exact (NFKD decomposes each code point on its own).
 */

/** Characters that render as nothing. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
/** Combining marks, dropped from the detection view ("i\u0301gnore" reads as "ignore"). */
const MARK = /\p{M}/gu;

export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, "");
}

export interface DetectionView {
  /** Folded text: no invisible characters, no combining marks, compatibility forms decomposed. */
  text: string;
  /**
   * `origin[i]` is the index in the source of the character that produced `text[i]`; absent when the view is
   * the source itself (ASCII text: index i comes from index i).
   */
  origin?: number[];
}

const ASCII = /^[\x00-\x7F]*$/;

function fold(char: string): string {
  return char.normalize("NFKD").replace(MARK, "").replace(INVISIBLE, "");
}

/** The folded view of `source` with a map back to it. */
export function detectionView(source: string): DetectionView {
  if (ASCII.test(source)) return { text: source };
  const cache = new Map<string, string>();
  const parts: string[] = [];
  const origin: number[] = [];
  for (let i = 0; i < source.length; ) {
    const code = source.codePointAt(i) as number;
    const width = code > 0xffff ? 2 : 1;
    if (code < 0x80) {
      parts.push(source[i] as string);
      origin.push(i);
    } else {
      const char = source.slice(i, i + width);
      let folded = cache.get(char);
      if (folded === undefined) {
        folded = fold(char);
        cache.set(char, folded);
      }
      parts.push(folded);
      for (let k = 0; k < folded.length; k++) origin.push(i);
    }
    i += width;
  }
  return { text: parts.join(""), origin };
}

/** The folded text alone (for a yes/no pattern test). */
export function foldForDetection(text: string): string {
  return detectionView(text).text;
}

/** Where view index `i` starts in the source (`i` may be the view's length: the source's end). */
export function sourceStart(view: DetectionView, i: number, sourceLength: number): number {
  if (!view.origin) return Math.min(i, sourceLength);
  return i < view.origin.length ? (view.origin[i] as number) : sourceLength;
}

/** Where the source character behind view index `i` ends (exclusive). */
export function sourceEnd(source: string, view: DetectionView, i: number): number {
  const start = view.origin ? (view.origin[i] as number) : i;
  return start + ((source.codePointAt(start) as number) > 0xffff ? 2 : 1);
}
