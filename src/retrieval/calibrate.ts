import { formsOfGloss } from "../text/lexicon.js";
import { isCjk } from "../text/tokenize.js";

const WORD_END = /[\p{L}\p{N}]$/u;

/** Does `term` occur in `lower` at the start of a word (not preceded by a letter or digit)? */
function atWordStart(lower: string, term: string): boolean {
  for (let at = lower.indexOf(term); at >= 0; at = lower.indexOf(term, at + 1)) {
    // Two code units back covers a letter outside the BMP (a surrogate pair).
    if (at === 0 || !WORD_END.test(lower.slice(Math.max(0, at - 2), at))) return true;
  }
  return false;
}

/** Does the text hold a German, Japanese or Chinese word whose English gloss is `term` (text/lexicon.ts)? */
function glossedIn(lower: string, term: string): boolean {
  return formsOfGloss(term).some((form) => lower.includes(form));
}

/**
 * Share of the query terms a text holds. Matched as word prefixes (so `refund` finds `refunds`, as the
 * Porter-stemmed index does) on the lower-cased text, without segmenting it again and without building a
 * pattern per term: this runs for every returned passage of every search.
 */
export function termCoverage(terms: string[], text: string): number {
  if (terms.length === 0) return 0;
  const lower = text.toLowerCase();
  let hit = 0;
  for (const term of terms) {
    if (isCjk(term) ? lower.includes(term) : atWordStart(lower, term) || glossedIn(lower, term)) hit++;
  }
  return hit / terms.length;
}

/**
 * Maps a BM25 hit to a confidence in [0, 1]: mostly how much of the query the passage covers, plus a
 * saturating share of the raw BM25 score. Rank order stays BM25's; this number is for thresholds
 * (`low_confidence`) and for people reading a trace.
 */
export function keywordConfidence(queryTermList: string[], passageText: string, raw: number): number {
  const cov = termCoverage(queryTermList, passageText);
  const strength = raw / (raw + 8);
  return Math.round((0.7 * cov + 0.3 * strength) * 1000) / 1000;
}
