import { queryTerms } from "../../../text/tokenize.js";

/** Which characters of the question the plan has accounted for. */
export class Mask {
  readonly #used: boolean[];

  constructor(readonly text: string) {
    this.#used = new Array<boolean>(text.length).fill(false);
  }

  free(from: number, to: number): boolean {
    for (let i = from; i < to; i++) if (this.#used[i]) return false;
    return true;
  }

  take(from: number, to: number): void {
    for (let i = from; i < to; i++) this.#used[i] = true;
  }

  /** The text with accounted-for characters blanked (same offsets). */
  visible(text = this.text): string {
    return text
      .split("")
      .map((ch, i) => (this.#used[i] ? " " : ch))
      .join("");
  }

  /** The words not yet accounted for (stop words dropped). */
  leftover(): string[] {
    return queryTerms(this.visible());
  }
}

export interface Hit {
  from: number;
  to: number;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Letters that join a word (CJK text has no spaces: a Latin word next to it still stands alone). */
const WORD = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{N}]/u;
const SPACE = /\s/;

/** Is the character that ends at `end` (exclusive) or starts at `start` a word letter? Surrogate pairs read whole. */
function wordBefore(text: string, end: number): boolean {
  if (end <= 0) return false;
  const low = text.charCodeAt(end - 1);
  const at = low >= 0xdc00 && low <= 0xdfff && end >= 2 ? end - 2 : end - 1;
  return WORD.test(String.fromCodePoint(text.codePointAt(at) ?? 0));
}

function wordAt(text: string, start: number): boolean {
  return start < text.length && WORD.test(String.fromCodePoint(text.codePointAt(start) ?? 0));
}

/**
 * Whole-phrase occurrences of `phrase` in `text`, left to right and not overlapping; the phrase's words
 * match across any run of whitespace. A Latin phrase must not touch other letters or digits; a CJK phrase
 * (written without spaces) matches anywhere. `indexOf` scans, no pattern compiled per phrase: a plan looks
 * up every probed column value this way.
 */
export function findPhrase(text: string, phrase: string): Hit[] {
  const words = phrase.split(/\s+/).filter((w) => w !== "");
  const first = words[0];
  if (first === undefined) return [];
  const anywhere = CJK.test(phrase);
  const hits: Hit[] = [];
  let from = 0;
  for (let at = text.indexOf(first, from); at >= 0; at = text.indexOf(first, from)) {
    let end = at + first.length;
    for (let i = 1; i < words.length && end >= 0; i++) {
      let j = end;
      while (j < text.length && SPACE.test(text.charAt(j))) j++;
      end = j > end && text.startsWith(words[i]!, j) ? j + words[i]!.length : -1;
    }
    if (end >= 0 && (anywhere || (!wordBefore(text, at) && !wordAt(text, end)))) {
      hits.push({ from: at, to: end });
      from = end;
    } else from = at + 1;
  }
  return hits;
}
