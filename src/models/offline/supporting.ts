/**
 * Which supporting sentences earn a citation next to the ones an answer already keeps. A sentence of the
 * same document adds no new source; a sentence of another document is kept only when it adds something the
 * kept ones lack: a constraint of the question (a name, identifier, number, year, version) their passages do
 * not hold and the sentence itself states (with its title and headings; not merely its passage elsewhere),
 * or a link in the chain of facts (it is the page of something a kept sentence names, it names a kept
 * page, or it shares with a kept sentence a name the question does not give). Anything else only repeats the
 * answer from another passage or is context, and would cite a source the answer does not use. Every check is
 * linear in the texts it reads.
 */
import { extractEntities, mentions } from "../../text/entities.js";
import { coverage } from "../../text/overlap.js";
import { constraintsOf, coverConstraints } from "./constraints.js";

/**
 * What the check reads of a unit: its quote, its context (title, section, heading and table header with the
 * quote), its passage (title, section and text), its title and document.
 */
export interface SupportUnit {
  quote: string;
  context: string;
  passageText: string;
  title: string;
  item: { docId: string };
}

/** How strictly a sentence of another document earns its citation (settings.answer.support). */
export interface SupportRules {
  /**
   * An identifier or code a unit shares with a kept unit links them only when the kept quote states it; on,
   * anywhere in the kept passage counts too. A passage's other sentences are not what the answer says: a
   * code they share ("feature-store" in a page and in an incident) ties the unit to a sentence not cited.
   */
  linkInPassage: boolean;
  /**
   * A unit adding a constraint of the question must also say something asked, or be the page or record of
   * the constraint it adds: a sentence that only names the constraint ("near-misses are reviewed monthly")
   * does not support what the answer says about it.
   */
  constraintSaysAsked: boolean;
}

const DEFAULT_RULES: SupportRules = { linkInPassage: false, constraintSaysAsked: true };

/** Shortest title that counts as a name a sentence can mention ("Iowa", not "A"). */
const MIN_TITLE = 4;

/**
 * Does the unit state a constraint of the question that no kept unit's passage holds? The unit's own context
 * must state it: a passage that names the constraint in another sentence does not make an unrelated sentence
 * of it ("the name means 'the headland'") support the answer; the sentence of it that does state the
 * constraint is the one to cite.
 */
export function addsConstraint(
  question: string,
  unit: SupportUnit,
  kept: readonly SupportUnit[],
  rules: SupportRules = DEFAULT_RULES,
  asked: readonly string[] = [],
): boolean {
  const missing = coverConstraints(constraintsOf(question), kept.map((k) => k.passageText).join("\n")).missing;
  if (missing.length === 0) return false;
  const still = coverConstraints(missing, unit.context).missing;
  const added = missing.filter((c) => !still.includes(c));
  if (added.length === 0) return false;
  if (!rules.constraintSaysAsked || asked.length === 0 || coverage([...asked], unit.context) > 0) return true;
  // Saying nothing asked, it counts only as the page or record of what it adds ("IR-7" for the record IR-7).
  return added.some((c) => mentions(`${unit.item.docId} ${unit.title}`, c.text));
}

/**
 * Does the unit continue the chain from a kept unit: a kept quote names the unit's page ("... directed by
 * Ann Vale" -> the page "Ann Vale"), the unit names a kept page, or it names something a kept passage names
 * and the question does not (a status code of the record kept, the place a kept sentence led to)?
 */
export function linksTo(
  question: string,
  unit: SupportUnit,
  kept: readonly SupportUnit[],
  rules: SupportRules = DEFAULT_RULES,
): boolean {
  const titled = (t: string) => t.trim().length >= MIN_TITLE;
  if (titled(unit.title) && kept.some((k) => mentions(k.quote, unit.title))) return true;
  if (kept.some((k) => titled(k.title) && !mentions(question, k.title) && mentions(unit.quote, k.title))) return true;
  // A capitalised name must be in a kept sentence (long passages name many); an identifier or code
  // ("in_transit", "INV-20-7") may link to anywhere in a kept passage when the rules allow it.
  // A record's fields are one statement about it: a code in any of them ("status: in_transit") links.
  const inPassage = (type: string, k: SupportUnit) =>
    type !== "name" && type !== "quoted" && (rules.linkInPassage || k.item.docId.includes("#"));
  return extractEntities(unit.quote).some(
    (e) =>
      !mentions(question, e.text) && kept.some((k) => mentions(inPassage(e.type, k) ? k.passageText : k.quote, e.text)),
  );
}

/**
 * Is a supporting unit worth its citation next to the kept units: it is of a kept document, or it adds a
 * constraint of the question or a link of the chain (see above)?
 */
export function earnsCitation(
  question: string,
  unit: SupportUnit,
  kept: readonly SupportUnit[],
  rules: SupportRules = DEFAULT_RULES,
  asked: readonly string[] = [],
): boolean {
  if (kept.length === 0 || kept.some((k) => k.item.docId === unit.item.docId)) return true;
  return addsConstraint(question, unit, kept, rules, asked) || linksTo(question, unit, kept, rules);
}

/** The units that earn their citation, in order: each judged against the first and those kept before it. */
export function supportingUnits<T extends SupportUnit>(
  question: string,
  lead: readonly T[],
  rest: readonly T[],
  rules: SupportRules = DEFAULT_RULES,
  asked: readonly string[] = [],
): T[] {
  const kept: T[] = [...lead];
  const out: T[] = [];
  for (const unit of rest) {
    if (!earnsCitation(question, unit, kept, rules, asked)) continue;
    kept.push(unit);
    out.push(unit);
  }
  return out;
}
