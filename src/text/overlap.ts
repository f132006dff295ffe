import { glossOf } from "./lexicon.js";
import { cjkBigrams, isCjk, normalise, queryTerms, terms, words } from "./tokenize.js";

/**
 * Crude English suffix folding, so `refunds` covers `refund` (the keyword index stems with Porter); a
 * German word the lexicon knows folds to its English gloss, so "Zustellung" and "delivery" are one term.
 */
export function fold(term: string): string {
  const gloss = term.length > 2 && !isCjk(term) ? glossOf(term) : undefined;
  if (gloss) return foldEnglish(gloss[0]!);
  return foldEnglish(term);
}

function foldEnglish(term: string): string {
  if (term.length > 5 && term.endsWith("ing")) return term.slice(0, -3);
  if (term.length > 4 && term.endsWith("ed")) return term.slice(0, -2);
  if (term.length > 4 && term.endsWith("es")) return term.slice(0, -2);
  if (term.length > 3 && term.endsWith("s") && !term.endsWith("ss")) return term.slice(0, -1);
  return term;
}

/** Folded term set of a text. */
export function termSet(text: string): Set<string> {
  return new Set(terms(text).map(fold));
}

/**
 * Folded terms of a field label or a record line: a lower-case snake_case word ("delivered_on") also gives its
 * parts, so "when was it delivered" meets the field that answers it; an upper-case code ("PAYMENT_NOT_ALLOWED")
 * stays one term, as a name does.
 */
export function labelTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const { word } of words(text)) {
    const term = normalise(word);
    out.add(fold(term));
    if (!word.includes("_") || word !== term) continue;
    for (const part of term.split("_")) if (part.length > 1) out.add(fold(part));
  }
  for (const pair of cjkBigrams(text)) out.add(fold(pair));
  return out;
}

/** Share of the query's terms that occur in the text, 0..1. */
export function coverage(query: string | string[], text: string | Set<string>): number {
  const wanted = (typeof query === "string" ? queryTerms(query) : query).map(fold);
  if (wanted.length === 0) return 0;
  const have = typeof text === "string" ? termSet(text) : text;
  let hit = 0;
  for (const term of wanted) if (have.has(term)) hit++;
  return hit / wanted.length;
}

/**
 * Like `coverage`, with each query term counting by its weight (`weight(term)` on the folded term, 0..1):
 * the weighted share of the query the text holds. All weights 1 gives `coverage`.
 */
export function weightedCoverage(
  query: string[],
  text: string | Set<string>,
  weight: (term: string) => number,
): number {
  const have = typeof text === "string" ? termSet(text) : text;
  let total = 0;
  let hit = 0;
  for (const term of query.map(fold)) {
    const w = weight(term);
    total += w;
    if (have.has(term)) hit += w;
  }
  return total > 0 ? hit / total : 0;
}
