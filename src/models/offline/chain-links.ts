import type { CallRecord } from "../../spec/engine.js";
import { mentions } from "../../text/entities.js";
import { coverage } from "../../text/overlap.js";
import type { QuestionPart } from "./analyze.js";
import { fullText } from "./evidence-view.js";

/**
 * The names the latest hop of a part started from: the names its searches followed (`follows`), or, for a
 * first search, the names the part gives.
 */
export function currentLinks(part: Pick<QuestionPart, "entities">, latest: readonly CallRecord[]): string[] {
  const followed = [...new Set(latest.flatMap((r) => (r.call.follows ? [r.call.follows] : [])))];
  return followed.length > 0 ? followed : [...part.entities];
}

/**
 * Of the passages a hop may go on from, those on the chain: the ones naming a link the latest hop started from.
 * The next link is named on the current link's page ("<river> flows through <country>"); another page the same
 * search brought up only shares the question's words, and its names are rivals of the answer ("<other falls>
 * lie in <other country>"), not the chain's next link. Every passage when none names a link (or there is none).
 */
export function onChain<P extends { title?: string; section?: string; text: string }>(
  passages: readonly P[],
  links: readonly string[],
): { passages: P[]; chained: boolean } {
  if (links.length === 0) return { passages: [...passages], chained: false };
  const chained = passages.filter((p) => links.some((l) => mentions(fullText(p), l)));
  return chained.length > 0 ? { passages: chained, chained: true } : { passages: [...passages], chained: false };
}

/**
 * Does a search for a bridge and the words a hop wants lead on: one of its passages, not one the chain has
 * already seen, names the bridge and holds at least one of the wanted words?
 */
export function leadsOn(
  bridge: string,
  want: readonly string[],
  hits: readonly { docId: string; title?: string; section?: string; text: string }[],
  seen: ReadonlySet<string>,
): boolean {
  return hits.some((h) => {
    if (seen.has(h.docId)) return false;
    const text = fullText(h);
    return mentions(text, bridge) && coverage([...want], text) > 0;
  });
}

/**
 * Another record of the kind the question names: an identifier of the same shape (letters and punctuation
 * alike, digits differing: "T-2207" for "T-2071"). A record's page may list its siblings, but the chain goes
 * on from the named record's own fields, never to a sibling.
 */
export function siblingRecord(candidate: string, named: readonly string[]): boolean {
  if (!/\d/.test(candidate)) return false;
  const shape = (s: string) => s.replace(/\d/g, "0");
  return named.some((n) => n !== candidate && /\d/.test(n) && shape(n) === shape(candidate));
}

/**
 * How common a name is in the knowledge base, 0..1: the square of the log of the documents mentioning it over
 * the log of all documents (1 for a name every document mentions, 0 for one only a single document names).
 * A bridge the chain can follow names one thing ("<person>", "<river>"); a demonym or a country named on a
 * good share of the pages ("American", "<big country>") links nearly everything to everything and leads to no
 * page of its own. Squared, so that names of a few pages each (a person, a song) stay nearly level and only
 * the names of many pages fall. `undefined` without counts (no entity graph).
 */
export function commonness(documents: number | undefined, total: number): number | undefined {
  if (documents === undefined) return undefined;
  if (documents <= 1 || total <= 1) return 0;
  return Math.min(1, Math.log(documents) / Math.log(total)) ** 2;
}

/**
 * Is a document's title after the name: it mentions the name, and the name is at least half of its words
 * once a trailing qualifier is left off ("Orlen Creek (Estrovia)", "Tamsby, Estrovia" are after "Orlen
 * Creek" and "Tamsby"; "Estrovian Rowing Federation" is not after "Estrovian"). A common word is in many
 * titles; a page of its own is what makes a name worth following.
 */
export function titledAfter(title: string, name: string): boolean {
  if (!mentions(title, name)) return false;
  const head = title.replace(/\s*\([^()]*\)\s*$/, "").split(",")[0] ?? title;
  const count = (s: string) => s.split(/\s+/).filter(Boolean).length;
  return mentions(head, name) ? count(name) * 2 >= count(head) : count(name) * 2 >= count(title);
}

/** An indefinite article, then at most two lower-case words or numbers: "an ", "a 2005 ", "a well-known ". */
const MODIFIER_LEAD = /(?:^|[^\p{L}\p{N}])[Aa]n?\s+(?:[\p{Ll}\p{N}][\p{L}\p{N}-]*\s+){0,2}$/u;
/** Characters before a name in which `MODIFIER_LEAD` looks for its article (bounds the match). */
const MODIFIER_WINDOW = 40;

/**
 * Does a unit use a one-word name only to describe something else: every time it appears, after "a" or "an"
 * and before a lower-case word ("an Estrovian rowing club", "a Tamsby-born painter")? Names of things
 * take no indefinite article; a word that does is an adjective (a nationality, a style), and following it
 * leads to every page that describes something the same way, not to the chain's next thing. A unit that
 * also names it on its own ("... moved to Estrovia", "Estrovian is spoken") keeps it.
 */
export function modifierOnly(unit: string, name: string): boolean {
  if (/\s/.test(name.trim()) || name.length === 0) return false;
  const lower = unit.toLowerCase();
  const target = name.toLowerCase();
  let seen = 0;
  for (let at = lower.indexOf(target); at >= 0; at = lower.indexOf(target, at + target.length)) {
    const end = at + target.length;
    // Only whole words count ("Estrovian" is not in "Estrovians' league").
    if (/[\p{L}\p{N}]/u.test(lower[at - 1] ?? "") || /[\p{L}\p{N}]/u.test(lower[end] ?? "")) continue;
    seen++;
    const before = MODIFIER_LEAD.test(unit.slice(Math.max(0, at - MODIFIER_WINDOW), at));
    const after = /^[\s-]+\p{Ll}/u.test(unit.slice(end, end + 3));
    if (!before || !after) return false;
  }
  return seen > 0;
}
