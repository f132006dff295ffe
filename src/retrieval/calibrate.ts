import { isCjk } from "../text/tokenize.js";

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Share of the query terms a text holds. Matched as word prefixes (so `refund` finds `refunds`, as the
 * Porter-stemmed index does) on the lower-cased text, without segmenting it again: this runs for every
 * returned passage of every search.
 */
function termCoverage(terms: string[], text: string): number {
  if (terms.length === 0) return 0;
  const lower = text.toLowerCase();
  let hit = 0;
  for (const term of terms) {
    const found = isCjk(term)
      ? lower.includes(term)
      : new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(term)}`, "u").test(lower);
    if (found) hit++;
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
