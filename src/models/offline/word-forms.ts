/**
 * Word forms that the crude suffix folding (text/overlap.ts) leaves apart: "quarantined" folds to
 * "quarantin", "quarantine" stays whole; "created" folds to "creat", "creation" stays whole. Used when the
 * answer's units are chosen only, never for retrieval: two words match when they share a start of at least
 * `minStem` letters and neither goes on for more than `maxTail` letters after it. No word list and no
 * language rules, so it holds for German ("Zustellung"/"Zustellungen") as it does for English; words with
 * digits (codes, figures) and CJK words match only exactly. Linear: each word gives at most `maxTail + 1` keys.
 */
import { fold } from "../../text/overlap.js";
import { isCjk } from "../../text/tokenize.js";

export interface FormOptions {
  /** Shortest shared start of two forms of one word. */
  minStem: number;
  /** Most letters a form may add after the shared start. */
  maxTail: number;
}

export const DEFAULT_FORMS: FormOptions = { minStem: 5, maxTail: 3 };

const LETTERS = /^\p{L}+$/u;

/** The keys a term is found under: itself and its starts down to `max(minStem, length - maxTail)` letters. */
export function formKeys(term: string, options: FormOptions = DEFAULT_FORMS): string[] {
  if (term.length <= options.minStem || !LETTERS.test(term) || isCjk(term)) return [term];
  const out: string[] = [];
  const shortest = Math.max(options.minStem, term.length - options.maxTail);
  for (let end = term.length; end >= shortest; end--) out.push(term.slice(0, end));
  return out;
}

/** Every key of every term of a set: what `hasForm` looks terms up in. */
export function formsOf(have: Iterable<string>, options: FormOptions = DEFAULT_FORMS): Set<string> {
  const out = new Set<string>();
  for (const term of have) for (const key of formKeys(term, options)) out.add(key);
  return out;
}

/** Does the set (built by `formsOf`) hold the term or another form of it? */
export function hasForm(forms: ReadonlySet<string>, term: string, options: FormOptions = DEFAULT_FORMS): boolean {
  return formKeys(term, options).some((k) => forms.has(k));
}

/** Share of the wanted terms (folded here, as `coverage` does) that the set holds in some form, 0..1. */
export function formCoverage(
  wanted: readonly string[],
  forms: ReadonlySet<string>,
  options: FormOptions = DEFAULT_FORMS,
  weight: (term: string) => number = () => 1,
): number {
  let total = 0;
  let hit = 0;
  for (const term of wanted) {
    const folded = fold(term);
    const w = weight(folded);
    total += w;
    if (hasForm(forms, folded, options)) hit += w;
  }
  return total > 0 ? hit / total : 0;
}
