/**
 * Completing an answer's sentences with the names it misses. The sentences that answer a part best need not
 * name everything the part names: the value is in one passage ("| Incident commander | Ilse Brandt |") and
 * the name that ties it to the question in another ("quota checks run in gate-keeper"). When the
 * evidence gathered holds a sentence naming each missing name, the answer cites it too; the usual checks
 * (coverage, answer kind, calibrated confidence) then decide whether the whole answers the part.
 */
import { mentions } from "../../text/entities.js";
import type { QuestionPart } from "./analyze.js";
import type { Candidate } from "./candidates.js";

/** A name of one record rather than of a thing: it holds a digit, a slash, an underscore or an @, or is kebab-case. */
export function specific(entity: string): boolean {
  return /[\d/_@]/.test(entity) || /^[a-z]+(?:-[a-z0-9]+)+$/.test(entity);
}

/**
 * The chosen sentences plus, for each name of the part that none of their passages mentions, the best-scored
 * other sentence whose passage does (one sentence may supply several names). Undefined when nothing is
 * missing, when a missing name is `specific`, when some name is in no passage at all, or when more than
 * `maxAdded` sentences would be needed.
 */
export function completeNames(
  part: Pick<QuestionPart, "entities">,
  chosen: readonly Candidate[],
  all: readonly Candidate[],
  maxAdded: number,
): Candidate[] | undefined {
  const named = (c: Candidate, e: string) => mentions(c.passageText, e);
  const missing = part.entities.filter((e) => !chosen.some((c) => named(c, e)));
  if (missing.length === 0 || maxAdded <= 0) return undefined;
  // An identifier, path or code names one record: a value about it must come from a passage that names it.
  if (missing.some(specific)) return undefined;
  const out = [...chosen];
  let left = missing;
  while (left.length > 0) {
    if (out.length - chosen.length >= maxAdded) return undefined;
    // The sentence naming most of what is still missing; the better-scored one among equals (`all` is best first).
    let best: Candidate | undefined;
    let bestCount = 0;
    for (const c of all) {
      if (out.includes(c)) continue;
      const count = left.filter((e) => named(c, e)).length;
      if (count > bestCount) {
        best = c;
        bestCount = count;
      }
    }
    if (!best) return undefined;
    out.push(best);
    left = left.filter((e) => !named(best, e));
  }
  return out;
}
