import type { Passage } from "../spec/passage.js";

/** Longest query the identifier scan reads (the pattern is linear; the cap keeps a hostile query cheap). */
const MAX_QUERY = 2000;

/** What ends an identifier: anything but letters, digits and joiners, and the CJK scripts, written without spaces. */
const SEPARATORS = /[^\p{L}\p{N}_.-]+|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+/u;

/**
 * Identifier-looking tokens of a query: a word of letters and digits joined by `-`, `_` or `.`, holding both a
 * letter and a digit ("ZQ-417", "AB_12", "run-7.log"). The tokenizer splits them ("zq", "417"), so a document
 * whose own id is the token ranks no higher than any page with a "417" in it; these restore the whole token.
 */
export function identifiersOf(query: string): string[] {
  const out = new Set<string>();
  // Split first, then test each token anchored: the two character classes are disjoint, so this is linear.
  // Chinese, Japanese and Korean text runs into an identifier without a space ("報告ZQ-417で"): it splits too.
  for (const raw of query.slice(0, MAX_QUERY).split(SEPARATORS)) {
    const token = raw.replace(/^[-_.]+/, "").replace(/[-_.]+$/, "");
    if (!/^[\p{L}\p{N}]+(?:[-_.][\p{L}\p{N}]+)+$/u.test(token)) continue;
    if (/\p{L}/u.test(token) && /\p{N}/u.test(token)) out.add(token.toLowerCase());
  }
  return [...out];
}

/**
 * A document's own names: the record key after `#` (a JSONL id, a table's key), else the file name with and
 * without its extension. Lower case.
 */
export function ownNames(docId: string): string[] {
  const hash = docId.lastIndexOf("#");
  if (hash >= 0) return [docId.slice(hash + 1).toLowerCase()];
  const base = docId.slice(docId.lastIndexOf("/") + 1).toLowerCase();
  const dot = base.lastIndexOf(".");
  return dot > 0 ? [base, base.slice(0, dot)] : [base];
}

/**
 * The best passage of each document named by an identifier of the query comes first (in their order), with at least the
 * best score of the list (with `rescore`): the query asked for that document by its id. Others keep their order.
 */
export function identityFirst(passages: readonly Passage[], query: string, rescore = true): Passage[] {
  const ids = identifiersOf(query);
  if (ids.length === 0) return [...passages];
  // Only the best-ranked passage of each named document moves: its other chunks keep their own rank, so a
  // long file named by its id does not push every other document's passages out.
  return keysFirst(passages, (p) => (ownNames(p.docId).some((n) => ids.includes(n)) ? p.docId : undefined), rescore);
}

/**
 * The best-ranked passage of each key `keyOf` gives (undefined: none) comes first, in their order; the others
 * keep theirs. With `rescore`, a moved passage gets at least the best score of the list.
 */
export function keysFirst(
  passages: readonly Passage[],
  keyOf: (p: Passage, i: number) => string | undefined,
  rescore: boolean,
): Passage[] {
  const moved = new Set<string>();
  const flags = passages.map((p, i) => {
    const key = keyOf(p, i);
    if (key === undefined || moved.has(key)) return false;
    moved.add(key);
    return true;
  });
  const first = passages.filter((_, i) => flags[i]);
  if (first.length === 0) return [...passages];
  const best = Math.max(...passages.map((p) => p.score));
  const lifted = rescore ? first.map((p) => ({ ...p, score: Math.max(p.score, best) })) : first;
  return [...lifted, ...passages.filter((_, i) => !flags[i])];
}
