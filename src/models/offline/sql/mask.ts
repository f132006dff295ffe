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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Letters that join a word (CJK text has no spaces: a Latin word next to it still stands alone). */
const WORD = "[\\p{Script=Latin}\\p{Script=Greek}\\p{Script=Cyrillic}\\p{N}]";

/**
 * Whole-phrase occurrences of `phrase` in `text`: a Latin phrase must not touch other letters or digits; a
 * CJK phrase (written without spaces) matches anywhere.
 */
export function findPhrase(text: string, phrase: string): Hit[] {
  if (phrase.trim() === "") return [];
  const body = escapeRegExp(phrase).replace(/\s+/g, "\\s+");
  const re = CJK.test(phrase) ? new RegExp(body, "gu") : new RegExp(`(?<!${WORD})${body}(?!${WORD})`, "gu");
  return [...text.matchAll(re)].map((m) => ({ from: m.index ?? 0, to: (m.index ?? 0) + m[0].length }));
}
