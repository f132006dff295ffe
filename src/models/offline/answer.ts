import { stripCitationMarkers } from "../../safety/citation-markers.js";
import type { AgentState, DraftAnswer, DraftClaim } from "../../spec/engine.js";
import { extractEntities, mentions } from "../../text/entities.js";
import { coverage, fold, termSet, weightedCoverage } from "../../text/overlap.js";
import { type AnswerType, askedFor, type QuestionPart } from "./analyze.js";
import { answerKindOf } from "./answer-kind.js";
import { hasAnswerType } from "./answer-types.js";
import { anchorNeeded, bridgedPair, chainPool } from "./bridge-answer.js";
import { type Candidate, candidates, cjkNamesHeld, wordTerms, wordWeight } from "./candidates.js";
import { comparisonClaim, numberIn, type Side } from "./compare.js";
import { dateComparisonClaim, dateSide, type SideEvidence, sharedVerdict } from "./compare-shared.js";
import { codesFor, orderedValue } from "./compare-values.js";
import { changeAsk, changeClaims } from "./compare-versions.js";
import { completeNames } from "./complete-names.js";
import { claimOf, composePart } from "./compose.js";
import { callsForPart } from "./evidence-view.js";
import { valueForOther } from "./near-miss.js";
import { newerTwins } from "./newer-twin.js";
import type { OfflineSettings } from "./settings.js";
import { sqlClaim, sqlCovers, sqlNotes, sqlUnmapped } from "./sql-steps.js";
import { valueSpan } from "./value-span.js";

/** Share of what a part asks (its non-entity terms) that some chosen sentence must hold. */
const ASKED_MIN = 0.5;

/** Questions that ask for every item of a list, and how many rows such an answer quotes at most. */
const LIST = /^\s*(?:list|enumerate|name all|what are (?:all )?the|which are the)\b/i;
const MAX_LISTED = 10;

function pick(part: QuestionPart, all: Candidate[]): Candidate[] {
  if (all.length === 0) return [];
  if (part.chain) {
    // One sentence per hop, in hop order: the chain of facts that leads to the answer. The first hop's
    // sentence should name where the chain starts (the question's entities); later hops add new sentences.
    const steps = [...new Set(all.map((c) => c.step))].sort((a, b) => a - b);
    const chosen: Candidate[] = [];
    for (const [i, step] of steps.entries()) {
      const inStep = all.filter((c) => c.step === step);
      const anchored = i === 0 ? inStep.find((c) => part.entities.some((e) => mentions(c.quote, e))) : undefined;
      const best = anchored ?? inStep[0];
      if (best && !chosen.some((x) => x.quote === best.quote)) chosen.push(best);
    }
    return chosen;
  }
  const first = all[0]!;
  if (LIST.test(part.text) && first.header) {
    // "List the action items ...": every row of the table the best row belongs to, in table order.
    const key = first.header.join("|");
    const rows = all.filter((c) => c.n === first.n && c.header?.join("|") === key);
    return rows.sort((a, b) => a.start - b.start).slice(0, MAX_LISTED);
  }
  const chosen = [first];
  // A second sentence only when it covers a term the first leaves out.
  const have = termSet(first.context);
  const second = all.find(
    (c) => c.quote !== first.quote && part.terms.some((t) => !have.has(t) && termSet(c.context).has(t)),
  );
  if (second && second.score >= 0.3) chosen.push(second);
  return chosen;
}

/** A question for how many times something happened, and a count of times said in words. */
const TIMES_ASKED = /\bhow (?:many times|often)\b/i;
const COUNT_ADVERB = /\b(?:once|twice|thrice)\b|\b(?:two|three|four|five|six|seven|eight|nine|ten)[- ]times?\b/i;

const DURATION_WORDS = /\b(?:long|longer|longest|shorter|shortest|last|lasted|duration|took)\b/i;
const COMPARATIVE_WORDS = new Set([
  "more",
  "less",
  "longer",
  "shorter",
  "higher",
  "lower",
  "larger",
  "smaller",
  "bigger",
  "fewer",
  "greater",
]);

/**
 * The sentence that gives one side's value in a quantitative comparison: it holds a number (a duration
 * when the question asks how long), belongs to a passage about that side, and says most about the
 * compared attribute (the part's words other than the side's own name and the comparative).
 */
function measureFor(
  part: QuestionPart,
  all: Candidate[],
  labelWeight: number,
  codes: readonly string[] = [],
): Candidate | undefined {
  const side = termSet(part.alternative ?? "");
  const attribute = part.terms.filter((t) => !side.has(t) && !COMPARATIVE_WORDS.has(t));
  const wantsDuration = DURATION_WORDS.test(part.text);
  // The side as the documents name it: its entities ("/v1/refunds"), not "the legacy GET /v0/items endpoint".
  // And the codes the evidence gives for it ("QRV" for Quarrow), which tables keyed by codes use instead.
  const names = [...extractEntities(part.alternative ?? "").map((e) => e.text), ...codes];
  const named = (text: string) =>
    names.length > 0 ? names.some((n) => mentions(text, n)) : mentions(text, part.alternative ?? "");
  // A row of a table keyed by the sides (a row of its own for the side: "| QRV | 17:45 |") is about the side only
  // if it is that row. A record's field table ("| Team | Alder |", "| Staff | 7 |") is about its record throughout.
  const keyCell = (quote: string) => quote.trim().replace(/^\|/, "").split("|")[0] ?? "";
  const ownRow = (c: Candidate) => all.some((o) => o.n === c.n && o.header !== undefined && named(keyCell(o.quote)));
  const about = (c: Candidate) =>
    !part.alternative || (named(c.passageText) && (c.header === undefined || !ownRow(c) || named(c.quote)));
  // A time of day or a rating under a label naming the attribute ("Road: 14:30", "severity: high") is a
  // value too: it orders without being a quantity.
  const rated = (c: Candidate) => orderedValue(c.quote, c.header, attribute)?.labelled === true;
  const fits = all.filter(
    (c) =>
      (numberIn(c.quote) !== undefined || rated(c)) &&
      about(c) &&
      (!wantsDuration || hasAnswerType(c.quote, "duration")),
  );
  // A number under a label naming the attribute ("Engineers in the rotation: 7") is that side's value.
  const labelled = (c: Candidate) =>
    rated(c) || valueSpan(c.quote, "number", { asked: attribute, header: c.header })?.labelled ? 1 : 0;
  const weight = (c: Candidate) => coverage(attribute, c.context) + 0.2 * c.score + labelWeight * labelled(c);
  return fits.sort((a, b) => weight(b) - weight(a))[0];
}

/** Does the best unit answer the part on its own: its passage names every entity, it holds the kind asked and says what is asked? */
function selfSufficient(part: QuestionPart, best: Candidate | undefined, kind: AnswerType, question: string): boolean {
  if (!best) return false;
  return (
    part.entities.every((e) => mentions(best.passageText, e)) &&
    hasAnswerType(best.quote, kind, question) &&
    best.asked >= ASKED_MIN
  );
}

/** Did the loop hop for this part: passages found at two or more steps? */
function hopped(state: AgentState, index: number): boolean {
  const steps = new Set(
    callsForPart(state, index)
      .filter((r) => r.passageKeys.length > 0)
      .map((r) => r.step),
  );
  return steps.size >= 2;
}

/** The outcome of a yes/no ("both", "the same") or date comparison between two sides, when the evidence settles it. */
function twoSidedOutcome(question: string, sides: SideEvidence[]) {
  if (sides.length !== 2) return undefined;
  if (sides[0]!.part.shared) return sharedVerdict(question, sides);
  const dated = sides.map(dateSide);
  return dated.every((d) => d !== undefined) ? dateComparisonClaim(question, dated) : undefined;
}

/** " Near miss: …; …." naming what the evidence gave values for instead, or nothing. */
function nearMisses(found: readonly string[]): string {
  const distinct = [...new Set(found)];
  return distinct.length > 0 ? ` Near miss: ${distinct.join("; ")}.` : "";
}

/** Longest quote of the closest sentence a refusal repeats. */
const CLOSEST_CHARS = 200;

/** " The closest found (doc): "…"." for a refusal, or nothing. */
export function closestFound(best: Pick<Candidate, "quote" | "item"> | undefined): string {
  if (!best) return "";
  // The quote is retrieved text: a marker-like "[3]" in it must not read as one of the answer's citations.
  const quote = stripCitationMarkers(best.quote).replace(/\s+/g, " ").trim();
  const cut = quote.length > CLOSEST_CHARS ? `${quote.slice(0, CLOSEST_CHARS)}…` : quote;
  return ` The closest found (${stripCitationMarkers(best.item.docId)}): "${cut}".`;
}

/**
 * Answers extractively: for each part, the sentences (or table lines) of the gathered evidence that best
 * cover it, each cited with its exact text as the quote. A part whose best sentences do not cover enough
 * of it, miss an entity it names, or lack the kind of answer it asks for is unsupported; with no part
 * supported the answer is a refusal that says what was searched and what was missing.
 */
export function answerFromEvidence(
  state: AgentState,
  parts: QuestionPart[],
  settings: OfflineSettings,
  unknown: Map<number, string[]> = new Map(),
): DraftAnswer {
  const claims: DraftClaim[] = [];
  const unsupported: string[] = [];
  const seen = new Set<string>();
  const sides: Side[] = [];
  /** Where each compared side's claims start: replaced by the comparison's outcome when there is one. */
  const sideClaims: number[] = [];
  /** Sides of a yes/no or date comparison, with their evidence; and where their claims start. */
  const twoSided: SideEvidence[] = [];
  let twoSidedFrom = -1;
  /** The best sentence found for any unsupported part: a refusal says what was found instead. */
  let closest: Candidate | undefined;
  /** Parts whose answering sentences are about another name than asked (near misses on the subject). */
  const otherFound: string[] = [];
  let joined: string | undefined;
  const evidenceText = () => {
    joined ??= state.evidence.map((e) => e.text).join("\n");
    return joined;
  };
  for (const [index, part] of parts.entries()) {
    if (sqlCovers(state, index)) continue;
    const computed = sqlClaim(state, part, index);
    if (computed && computed.citations.length > 0) {
      claims.push(computed);
      const unmapped = sqlUnmapped(state, part, index);
      if (unmapped.length > 0)
        unsupported.push(`${part.text} (no column or value of the table matches: ${unmapped.join(", ")})`);
      continue;
    }
    const grade = state.lastGrade?.subQuestions.find((g) => g.index === index);
    if ((unknown.get(index) ?? []).length > 0) {
      unsupported.push(`${part.text} (nothing you may read mentions ${unknown.get(index)!.join(", ")})`);
      continue;
    }
    const kind = answerKindOf(part);
    const all = candidates(state, part, index, kind, { ...settings.answer, codeAliases: settings.aliases.codes });
    if (part.shared || (part.comparative && part.answerType === "date")) {
      if (twoSided.length === 0) twoSidedFrom = claims.length;
      twoSided.push({ part, all });
    }
    // "How many nurses work in X": the number must come with what is counted (not with X's own name).
    const counted = /^\s*how (?:many|much)\b/i.test(part.text) ? askedFor(part.text).map(fold) : [];
    // "How many times ...": a count said in words ("twice", "a three-time winner") answers it too.
    const timesAsked = settings.answer.countAdverbs && TIMES_ASKED.test(part.text);
    const withoutEntities = (text: string) => part.entities.reduce((t, e) => t.split(e).join(" "), text);
    const graded = !grade || grade.missing.every((m) => !part.entities.includes(m));
    // One lookup whose every sentence that says what is asked gives it for another name ("Rotterdam: 7 km/h"
    // asked about Lyon; Lyon named only by another sentence): a near miss on the subject, not an answer.
    const lookup = !part.chain && part.alternative === undefined && part.entities.length > 0;
    const forOther = (chosen: Candidate[]): boolean => {
      if (!lookup) return false;
      const saying = chosen.filter(
        (c) => c.asked >= ASKED_MIN && hasAnswerType(c.quote, kind, state.standaloneQuestion),
      );
      if (saying.length === 0) return false;
      const others = saying.map((c) => valueForOther(c, part.entities, state.standaloneQuestion, evidenceText()));
      if (others.some((o) => o === undefined)) return false;
      const said = stripCitationMarkers(saying[0]!.quote).replace(/\s+/g, " ").slice(0, CLOSEST_CHARS);
      otherFound.push(`the evidence gives this for ${others[0]}, not ${part.entities.join(", ")} ("${said}")`);
      return true;
    };
    const weight = wordWeight(state, part, settings.answer.unheldWordWeight);
    const supports = (chosen: Candidate[]): boolean => {
      const text = chosen.map((c) => c.context).join(" ");
      const entitiesOk = part.entities.every((e) => chosen.some((c) => mentions(c.passageText, e)));
      const typed = chosen.some(
        (c) =>
          (timesAsked && COUNT_ADVERB.test(c.quote)) ||
          (hasAnswerType(c.quote, kind, state.standaloneQuestion) &&
            (counted.length === 0 || counted.some((t) => termSet(withoutEntities(c.context)).has(t)))),
      );
      // Enough of the part covered, and some sentence about what it asks (not only its names).
      const enough =
        weightedCoverage(wordTerms(part), text, weight) >= settings.minAnswerCoverage &&
        chosen.some((c) => c.asked >= ASKED_MIN) &&
        cjkNamesHeld(part, text, settings.answer.cjkNameLength);
      return chosen.length > 0 && entitiesOk && typed && enough && graded && !forOther(chosen);
    };
    let chosen = pick(part, all);
    let anchor: Candidate | undefined;
    /** Was the answer bridged (its pool is then the chain alone, whether or not the anchor is cited)? */
    let bridged = false;
    /** Sentences added only because they name what the answer's sentences do not: they stay cited. */
    let naming: Candidate[] = [];
    if (
      settings.hop.bridgedAnswer &&
      !part.alternative &&
      hopped(state, index) &&
      // A unit whose stated range holds the question's amount answers it itself (thresholds.ts).
      chosen[0]?.fit !== 1 &&
      !selfSufficient(part, chosen[0], kind, state.standaloneQuestion)
    ) {
      // After hops, the answer is the bridge's value asked about, then the sentence that led to it.
      const pair = bridgedPair(part, all, state.standaloneQuestion, kind, {
        fieldValues: settings.hop.fieldValues,
        unitOwner: settings.hop.unitOwner,
        nounCapitals: settings.hop.nounCapitals,
      });
      if (pair && supports([pair.answer, pair.anchor])) {
        bridged = true;
        // The anchor is cited only when the answer's own passage does not name what it names.
        if (settings.hop.neededAnchorOnly && !anchorNeeded(part, pair) && supports([pair.answer]))
          chosen = [pair.answer];
        else {
          chosen = [pair.answer, pair.anchor];
          anchor = pair.anchor;
        }
      }
    }
    if (!supports(chosen) && settings.answer.completeNames > 0) {
      // The evidence may name what the chosen sentences do not: cite that sentence too, then check again.
      const completed = completeNames(part, chosen, all, settings.answer.completeNames);
      if (completed && supports(completed)) {
        naming = completed.slice(chosen.length);
        chosen = completed;
      }
    }
    if (!supports(chosen)) {
      unsupported.push(part.text);
      if (chosen[0] && (!closest || chosen[0].score > closest.score)) closest = chosen[0];
      continue;
    }
    const measured =
      part.comparative && part.answerType !== "date"
        ? measureFor(
            part,
            all,
            settings.answer.measureLabelWeight,
            codesFor(
              part.alternative ?? "",
              state.evidence.map((e) => e.text),
            ),
          )
        : undefined;
    if (measured) {
      const attribute = part.terms.filter((t) => !termSet(part.alternative ?? "").has(t));
      const value = valueSpan(measured.quote, "number", { asked: attribute, header: measured.header });
      sides.push({
        part,
        n: measured.n,
        quote: measured.quote,
        value: value?.labelled ? value.text : undefined,
        ordered: orderedValue(measured.quote, measured.header, attribute),
      });
      sideClaims.push(claims.length);
    }
    // A bridged answer stands on its chain alone: the bridge's sentence and the one answering for the bridge.
    // Other units of the evidence (rival values, more record lines) would be cited for a chain they are not on.
    // A unit of a superseded edition is read from the current one when the evidence holds its twin there.
    chosen = newerTwins(chosen, all, state.standaloneQuestion, settings.answer.newerTwinShare);
    const composed = composePart({
      question: state.standaloneQuestion,
      part,
      kind,
      chosen,
      all: chainPool(chosen, all, bridged, settings.hop.chainOnly),
      settings: settings.answer,
    });
    // The chain stays cited: the sentence naming the bridge is what ties the value to the question's names;
    // so does a sentence added only for a name the answer's sentences lack.
    for (const kept of anchor ? [anchor, ...naming] : naming) {
      if (!composed.some((c) => c.citations.some((x) => x.n === kept.n && x.quote === kept.quote)))
        composed.push(claimOf(kept));
    }
    for (const claim of composed) {
      const key = claim.citations.map((c) => `${c.n}|${c.quote}`).join("\n") + claim.text;
      if (seen.has(key)) continue;
      seen.add(key);
      claims.push(claim);
    }
  }
  const outcome = comparisonClaim(sides);
  if (outcome) {
    // The outcome cites each side's value: the sides' own sentences would only repeat it.
    const first = sideClaims[0] ?? 0;
    claims.splice(first, claims.length - first);
    claims.unshift(outcome);
  }
  const settled = twoSidedOutcome(state.standaloneQuestion, twoSided);
  if (settled) {
    // The outcome answers both sides (a side without the attribute is the answer "no", not a gap), and
    // cites each side's sentence: their own claims would only repeat them.
    claims.splice(twoSidedFrom, claims.length - twoSidedFrom);
    claims.unshift(settled);
    const sideTexts = new Set(twoSided.map((s) => s.part.text));
    for (let i = unsupported.length - 1; i >= 0; i--) if (sideTexts.has(unsupported[i]!)) unsupported.splice(i, 1);
  }
  const change = changeAsk(state.standaloneQuestion);
  const changed = change ? changeClaims(state.standaloneQuestion, change, state.evidence) : undefined;
  if (changed) {
    // The versions' own statements answer: other claims citing the two versions would only repeat one side.
    const versions = new Set(changed.flatMap((c) => c.citations.map((x) => state.evidence[x.n - 1]?.docId)));
    const rest = claims.filter((c) => !c.citations.some((x) => versions.has(state.evidence[x.n - 1]?.docId)));
    claims.splice(0, claims.length, ...changed, ...rest);
    unsupported.splice(0, unsupported.length);
  }
  const notes = sqlNotes(state, parts)
    .map((n) => ` ${n.charAt(0).toUpperCase()}${n.slice(1)}.`)
    .join("");
  if (claims.length === 0) {
    const searched = state.calls.map(
      (c) => `${String(c.call.args.corpus ?? c.call.tool)} for "${String(c.call.args.query ?? "")}"`,
    );
    const missing = state.lastGrade?.subQuestions.flatMap((g) => g.missing) ?? [];
    return {
      status: "refused",
      claims: [],
      reason:
        `The knowledge base does not answer this. Searched ${searched.join("; ") || "nothing"}` +
        (missing.length > 0 ? `; nothing found covers: ${[...new Set(missing)].join(", ")}.` : ".") +
        nearMisses(otherFound) +
        closestFound(closest) +
        notes,
    };
  }
  if (unsupported.length > 0) {
    return {
      status: "partial",
      claims,
      reason: `Not found in the knowledge base: ${unsupported.join("; ")}.${nearMisses(otherFound)}${notes}`,
    };
  }
  return { status: "answered", claims };
}
