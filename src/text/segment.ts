import { latinWordSegments } from "./latin-words.js";

/**
 * `Intl.Segmenter` in bounded slices. Every segment V8's iterator returns carries a fresh copy of the whole
 * input (its `input` field), so one call over a long string is quadratic in time and churns memory (words
 * of 200 KB of English: 19 s; the same text in 1 KB slices: 0.1 s). Texts longer than a slice are
 * segmented piece by piece, each piece cut where the cut cannot change the result:
 * - words: after a line feed (a word boundary whatever follows), or after a space, tab or CJK full stop /
 *   comma / exclamation / question mark when a letter (Latin, Greek, Cyrillic, kana, CJK, Hangul), digit or
 *   ASCII punctuation follows (no word rule joins across such a pair, and no dictionary run of Chinese or
 *   Japanese spans it);
 * - sentences: after a line feed (a paragraph separator always ends a sentence).
 * Where no such place falls in the second half of a slice (a line of 1 KB without one, 1 MB of one
 * character), the slice is cut anyway and the slices overlap: a boundary counts only where it had a margin
 * of text on both sides within its slice, and a segment is stitched from the last counted boundary to the
 * next, however many slices apart (1 MB of one letter is one word, as in one call). Texts of up to one
 * slice are segmented in one call, as before. Word slices of plain Latin text skip ICU (latin-words.ts).
 */

/** Characters per slice: small enough that the per-segment cost stays flat, large enough to amortise a call. */
export const SLICE_CHARS = 1024;

export interface SliceOptions {
  /** Characters per slice (tests use small slices to exercise the cuts); default `SLICE_CHARS`. */
  sliceChars?: number;
}

/** A segment with its offset in the whole text. */
export interface Segment {
  segment: string;
  index: number;
  isWordLike: boolean;
}

const wordSegmenter = new Intl.Segmenter("und", { granularity: "word" });
const sentenceSegmenter = new Intl.Segmenter("und", { granularity: "sentence" });

const LF = 0x0a;

/** A character that no word rule joins with what precedes it, when that is a space or a stop. */
function plainStart(c: number): boolean {
  return (
    (c >= 0x21 && c <= 0x7e) ||
    c === LF ||
    (c >= 0xc0 && c <= 0x17f && c !== 0xd7 && c !== 0xf7) || // Latin-1 and Latin Extended-A letters
    (c >= 0x391 && c <= 0x3c9) || // Greek letters
    (c >= 0x410 && c <= 0x44f) || // Cyrillic letters
    (c >= 0x3041 && c <= 0x3096) || // Hiragana letters
    (c >= 0x30a1 && c <= 0x30fa) || // Katakana letters
    (c >= 0x4e00 && c <= 0x9fff) || // CJK unified ideographs
    (c >= 0xac00 && c <= 0xd7a3) // Hangul syllables
  );
}

/** Space, tab, CR, LF, ideographic space: whitespace no word rule joins across. */
function plainSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === LF || c === 0x0d || c === 0x3000;
}

/** Space, tab, ideographic full stop and comma, full-width ! and ?: word break property Other or WSegSpace. */
function breakAfter(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x3002 || c === 0x3001 || c === 0xff01 || c === 0xff1f;
}

function wordCut(text: string, p: number): boolean {
  const prev = text.charCodeAt(p - 1);
  if (prev === LF) return true;
  return breakAfter(prev) && plainStart(text.charCodeAt(p));
}

/**
 * True when the words of the text before `end` and of the text from `start` (`end` <= `start`, only
 * whitespace between) are, read apart, the words they give read together: no word spans the joint and
 * neither side's words depend on the other. Conservative: false means "read them together to be sure".
 */
export function wordsSeparate(text: string, end: number, start: number): boolean {
  if (start === end) return start === 0 || start === text.length || wordCut(text, start);
  for (let p = end; p < start; p++) if (!plainSpace(text.charCodeAt(p))) return false;
  return start === text.length || plainStart(text.charCodeAt(start));
}

function sentenceCut(text: string, p: number): boolean {
  return text.charCodeAt(p - 1) === LF;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** A segment as a segmenter reports it for one piece of text. */
interface PieceSegment {
  segment: string;
  index: number;
  isWordLike?: boolean;
}

/** Segments one piece of text (at most a slice). */
type Segmenter = (piece: string) => Iterable<PieceSegment>;

function* sliced(
  text: string,
  segmenter: Segmenter,
  isCut: (text: string, p: number) => boolean,
  options: SliceOptions,
): Generator<Segment> {
  const n = text.length;
  const max = Math.max(16, options.sliceChars ?? SLICE_CHARS);
  if (n <= max) {
    for (const s of segmenter(text)) yield { segment: s.segment, index: s.index, isWordLike: s.isWordLike === true };
    return;
  }
  const min = max >> 1;
  const ahead = Math.min(128, max >> 3);
  const behind = Math.min(64, max >> 4);
  let pos = 0; // where the next slice starts
  let open = 0; // start of the segment not yet yielded: always a boundary of the whole text
  while (open < n) {
    let end = Math.min(n, pos + max);
    let clean = end === n;
    if (!clean) {
      for (let p = end; p >= pos + min; p--) {
        if (isCut(text, p)) {
          end = p;
          clean = true;
          break;
        }
      }
      if (!clean && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    }
    // Boundaries the slice reports are trusted where they had enough text on both sides: from `behind`
    // characters in (from the start when the slice starts at a known boundary) to `ahead` before its end
    // (to the end when the slice ends at a clean cut).
    const len = end - pos;
    const from = pos === open ? 0 : behind;
    const to = clean ? len : len - ahead;
    let prev: { segment: string; index: number; isWordLike?: boolean } | undefined;
    for (const s of segmenter(text.slice(pos, end))) {
      const b = pos + s.index;
      if (prev !== undefined && s.index >= from && s.index <= to && b > open) {
        const whole = pos + prev.index === open;
        yield {
          segment: whole ? prev.segment : text.slice(open, b),
          index: open,
          isWordLike: prev.isWordLike === true,
        };
        open = b;
      }
      prev = s;
    }
    if (clean) {
      if (end > open && prev !== undefined) {
        const whole = pos + prev.index === open;
        yield {
          segment: whole ? prev.segment : text.slice(open, end),
          index: open,
          isWordLike: prev.isWordLike === true,
        };
      }
      open = end;
      pos = end;
    } else pos = Math.max(open, pos + to - behind);
  }
}

/** Words of a piece: plain Latin without ICU (the same segments, much faster), anything else with ICU. */
function segmentWords(piece: string): Iterable<PieceSegment> {
  return latinWordSegments(piece) ?? wordSegmenter.segment(piece);
}

function segmentSentences(piece: string): Iterable<PieceSegment> {
  return sentenceSegmenter.segment(piece);
}

/** Word segments (word-like or not) of a text, with offsets, in order; linear in the text's length. */
export function wordSegments(text: string, options: SliceOptions = {}): Generator<Segment> {
  return sliced(text, segmentWords, wordCut, options);
}

/** Sentence segments of a text (untrimmed), with offsets, in order; linear in the text's length. */
export function sentenceSegments(text: string, options: SliceOptions = {}): Generator<Segment> {
  return sliced(text, segmentSentences, sentenceCut, options);
}
