import { coverage } from "../text/overlap.js";

/**
 * Maps a BM25 hit to a confidence in [0, 1]: mostly how much of the query the passage covers, plus a
 * saturating share of the raw BM25 score. Rank order stays BM25's; this number is for thresholds
 * (`low_confidence`) and for people reading a trace.
 */
export function keywordConfidence(queryTermList: string[], passageText: string, raw: number): number {
  const cov = coverage(queryTermList, passageText);
  const strength = raw / (raw + 8);
  return Math.round((0.7 * cov + 0.3 * strength) * 1000) / 1000;
}
