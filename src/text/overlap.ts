import { queryTerms, terms } from "./tokenize.js";

/** Crude English suffix folding, so `refunds` covers `refund` (the keyword index stems with Porter). */
export function fold(term: string): string {
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

/** Share of the query's terms that occur in the text, 0..1. */
export function coverage(query: string | string[], text: string | Set<string>): number {
  const wanted = (typeof query === "string" ? queryTerms(query) : query).map(fold);
  if (wanted.length === 0) return 0;
  const have = typeof text === "string" ? termSet(text) : text;
  let hit = 0;
  for (const term of wanted) if (have.has(term)) hit++;
  return hit / wanted.length;
}
