import type { Passage } from "../spec/passage.js";
import { normalise, words } from "../text/tokenize.js";
import { keysFirst } from "./identity.js";

/** Longest query the title scan reads, as the identifier scan (identity.ts). */
const MAX_QUERY = 2000;
/** A title of more words than this is a headline, not a name a query would spell out. */
const MAX_TITLE_WORDS = 8;

interface QueryWord {
  term: string;
  /** Written with a capital or a digit. */
  capital: boolean;
  /** Written so where the query is not starting a sentence: part of a name. */
  named: boolean;
}

const NAMED = /^[\p{Lu}\p{Lt}\p{N}]/u;

function queryWords(query: string): QueryWord[] {
  return words(query.slice(0, MAX_QUERY)).map(({ word }, i) => ({
    term: normalise(word),
    capital: NAMED.test(word),
    // The first word is capitalised by the sentence: it marks no name before another (though it may start one).
    named: NAMED.test(word) && i > 0,
  }));
}

/** The title without a trailing qualifier in parentheses ("Mercer (band)" is the page of the name "Mercer"). */
export function titleName(title: string): string {
  const cut = title.trimEnd();
  if (!cut.endsWith(")")) return cut;
  const open = cut.lastIndexOf("(");
  return open > 0 ? cut.slice(0, open).trimEnd() : cut;
}

/**
 * Does the query spell out the title's name as a whole name: its words in a row, at least one of them written as
 * a name (a capital or a digit), and neither the word before nor the word after also written as one (then the
 * title would be part of a longer name the query gives)? Linear: each start of the title's first word in the
 * query is checked against at most MAX_TITLE_WORDS words.
 */
function spells(query: readonly QueryWord[], starts: ReadonlyMap<string, number[]>, title: string): boolean {
  const want = words(titleName(title)).map(({ word }) => normalise(word));
  const first = want[0];
  if (first === undefined || want.length > MAX_TITLE_WORDS) return false;
  for (const at of starts.get(first) ?? []) {
    if (at + want.length > query.length) break;
    let same = true;
    let named = false;
    for (let j = 0; j < want.length && same; j++) {
      const word = query[at + j]!;
      same = word.term === want[j];
      named ||= word.capital;
    }
    if (!same || !named) continue;
    if (query[at - 1]?.named || query[at + want.length]?.named) continue;
    return true;
  }
  return false;
}

/** The passages whose document title the query spells out as a name (see `spells`), by index. */
export function titledByQuery(passages: readonly Passage[], query: string): boolean[] {
  const qw = queryWords(query);
  const starts = new Map<string, number[]>();
  for (const [i, w] of qw.entries()) {
    const list = starts.get(w.term);
    if (list) list.push(i);
    else starts.set(w.term, [i]);
  }
  return passages.map((p) => p.title !== undefined && spells(qw, starts, p.title));
}

/**
 * The best passage of each title the query spells out as a name comes first (in their order), with at least the
 * best score of the list (with `rescore`): a query giving a name asks first for the page of that name, above
 * pages that only mention it ("Mercer" over "Mercer discography" and "List of Mercer songs"). One passage per
 * title moves (a page stored as several documents of one title moves once); the others keep their order.
 */
export function titledFirst(passages: readonly Passage[], query: string, rescore = true): Passage[] {
  const titled = titledByQuery(passages, query);
  return keysFirst(passages, (p, i) => (titled[i] ? (p.title ?? "").trim().toLowerCase() : undefined), rescore);
}
