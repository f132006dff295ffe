import { mentions } from "../../text/entities.js";
import { coverage, termSet } from "../../text/overlap.js";
import type { AnswerType, QuestionPart } from "./analyze.js";
import { hasAnswerType } from "./answer-types.js";
import { fieldLine, nounCapitalsIn, typeWords, unitBridges } from "./bridge-type.js";
import { askedTerms, type Candidate } from "./candidates.js";

/**
 * The answer of a bridged question: "In which year did the region around <town> join the federation?" is answered
 * by two sentences, one naming the town and the region it is in (the bridge), and one of the region's own
 * evidence stating the date. The answer is the second one's value, not a quote of the first.
 */
export interface BridgedPair {
  /** The unit naming what the question names, and the bridge. */
  anchor: Candidate;
  /** The unit of the bridge's evidence that holds the kind of answer asked. */
  answer: Candidate;
  bridge: string;
}

/** How a pair is weighed (settings.hop). */
export interface BridgeOptions {
  /** Record field values count as bridges (bridge-type.ts `fieldValue`). */
  fieldValues: boolean;
  /**
   * How much a unit that itself names the bridge belongs to it (a table row of the bridge's code), between a
   * passage titled after the bridge (1) and one that only mentions it somewhere (0.5).
   */
  unitOwner: number;
  /** Capitalised nouns of a German passage are no bridges (settings.hop.nounCapitals, bridge-type.ts). */
  nounCapitals?: boolean;
}

const DEFAULT_OPTIONS: BridgeOptions = { fieldValues: false, unitOwner: 0.5 };

/**
 * Does a unit belong to a name: its passage titled after it, the unit itself naming it, or its passage naming
 * it somewhere? In a table of every site, the row of the bridge's site is the one that answers for it.
 */
export function belongs(c: Candidate, name: string, unitOwner = DEFAULT_OPTIONS.unitOwner): number {
  if (c.title && (mentions(c.title, name) || (c.title.length > 3 && mentions(name, c.title)))) return 1;
  if (mentions(c.quote, name)) return Math.max(unitOwner, 0.5);
  return mentions(c.passageText, name) ? 0.5 : 0;
}

/** The part's entities a unit names: in its quote or title, or anywhere in its record when it is a record's line. */
function namedBy(part: Pick<QuestionPart, "entities">, c: Candidate): string[] {
  // A line of a record (its `field: value` lines) speaks for the record: the ticket naming the endpoint
  // gives the service on another line of it.
  const record = fieldLine(c.quote) !== undefined;
  return part.entities.filter(
    (e) => mentions(c.quote, e) || mentions(c.title, e) || (record && mentions(c.passageText, e)),
  );
}

/**
 * Is the pair's anchor needed to tie the answer to the question: does it name something of the question that
 * the answer's own passage does not? When the answer's passage names all the anchor names, it stands alone.
 */
export function anchorNeeded(part: Pick<QuestionPart, "entities">, pair: Pick<BridgedPair, "anchor" | "answer">) {
  return namedBy(part, pair.anchor).some((e) => !mentions(pair.answer.passageText, e));
}

/**
 * The best anchor-and-answer pair of a part's evidence: the anchor unit names one of the part's entities and
 * a name the question does not give (the bridge); the answer unit is of another passage that belongs to the
 * bridge, holds the kind of answer asked, and says what the anchor leaves out of the asked terms. Undefined
 * when the part names nothing, or no such pair exists.
 */
export function bridgedPair(
  part: QuestionPart,
  all: readonly Candidate[],
  question: string,
  kind: AnswerType,
  options: BridgeOptions = DEFAULT_OPTIONS,
): BridgedPair | undefined {
  if (part.entities.length === 0) return undefined;
  const types = typeWords(part);
  const asked = askedTerms(part);
  // A unit stating a range that excludes the amount the question states is another case's value.
  const typedUnits = all.filter((c) => c.fit !== -1 && hasAnswerType(c.quote, kind, question));
  let best: (BridgedPair & { score: number }) | undefined;
  for (const anchor of all) {
    if (anchor.fit === -1 || namedBy(part, anchor).length === 0) continue;
    const nounCapitals = nounCapitalsIn(anchor.passageText, options.nounCapitals ?? false);
    const bridges = unitBridges(anchor.quote, question, types, options.fieldValues, nounCapitals);
    if (bridges.length === 0) continue;
    const have = termSet(anchor.context);
    const rest = asked.filter((t) => !have.has(t));
    const anchorScore = coverage(part.terms, have);
    for (const bridge of bridges) {
      for (const answer of typedUnits) {
        if (answer.n === anchor.n) continue;
        const owner = belongs(answer, bridge, options.unitOwner);
        if (owner === 0) continue;
        // It says something asked that the anchor does not (with nothing left to say, its type is enough).
        const says = rest.length === 0 ? 0.5 : coverage(rest, answer.context);
        if (says === 0) continue;
        const score = anchorScore + says + owner + 0.1 * answer.score;
        if (!best || score > best.score) best = { anchor, answer, bridge, score };
      }
    }
  }
  return best ? { anchor: best.anchor, answer: best.answer, bridge: best.bridge } : undefined;
}

/**
 * The units a part's answer may draw on: after a bridged pair, only the pair (with `chainOnly`). Other units of
 * the evidence (a rival value of another document, more lines of the same records) are not on the chain, and
 * citing them for it lowers what the answer's citations are worth.
 */
export function chainPool(
  chosen: readonly Candidate[],
  all: readonly Candidate[],
  bridged: boolean,
  chainOnly: boolean,
): Candidate[] {
  return bridged && chainOnly ? [...chosen] : [...all];
}
