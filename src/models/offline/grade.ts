import type { AgentState, GradeResult } from "../../spec/engine.js";
import type { SubQuestionGrade } from "../../spec/trace.js";
import { mentions } from "../../text/entities.js";
import { coverage, labelTerms, termSet } from "../../text/overlap.js";
import { aliasNames, evidenceAliases, withAliasNames } from "./aliases.js";
import type { QuestionPart } from "./analyze.js";
import { hasAnswerType } from "./answer-types.js";
import { changeAsk, versionCalls } from "./compare-versions.js";
import { constraintsOf, coverConstraints } from "./constraints.js";
import { callsForPart, fullText, passagesOf, unitsOf } from "./evidence-view.js";
import { namesLineItem } from "./line-items.js";
import { referentSearched } from "./referent.js";
import { newEntities } from "./route.js";
import { type OfflineSettings, thresholdAt } from "./settings.js";
import { answeredBySql } from "./sql-steps.js";

/** How many passages of each call count as that call's evidence when grading. */
const TOP_PER_CALL = 3;
/** Constraint kinds a part's evidence must hold to be sufficient: the period or version it asks about. */
const PERIOD_KINDS = new Set(["year", "quarter", "version"]);
/** Share of a chained question's head terms ("which Slack channel reaches the team") one passage must hold. */
const HEAD_COVERAGE = 0.6;

/**
 * The names a chain may go on from: those the first search's passages give that the question does not,
 * from the passages naming what the question names when there are any (the chain starts there).
 */
export function bridgeNames(
  part: Pick<QuestionPart, "entities">,
  firstHop: readonly { title?: string; section?: string; text: string }[],
  question: string,
): string[] {
  const about = firstHop.filter((p) => part.entities.some((e) => mentions(fullText(p), e)));
  const from = about.length > 0 ? about : firstHop;
  return [...new Set(from.flatMap((p) => newEntities(fullText(p), question)))];
}

/**
 * Grades one part: coverage of its terms by the union of what its calls found (a chain of hops covers a
 * multi-hop question together), every entity it names found, the head of a chained question covered by
 * one passage, and a sentence holding the kind of answer asked for (a name for "who", a number for
 * "how many").
 */
export function gradePart(
  state: AgentState,
  part: QuestionPart,
  index: number,
  threshold: number,
  bridgeHead = false,
  codeAliases = false,
): SubQuestionGrade {
  if (answeredBySql(state, part, index)) {
    return { index, text: part.text, coverage: 1, confidence: 1, missing: [], sufficient: true };
  }
  const records = callsForPart(state, index);
  const found = records.flatMap((r) => passagesOf(state, r, TOP_PER_CALL).map((x) => x.passage));
  // A row keyed by a code the evidence gives for a name of the part ("| QRV | ..." for Quarrow) names it.
  const aliases = evidenceAliases(state.evidence, aliasNames(part), codeAliases);
  const textOf = (p: { title?: string; section?: string; text: string }) => withAliasNames(fullText(p), aliases);
  const texts = found.map(textOf);
  const steps = [...new Set(records.filter((r) => r.passageKeys.length > 0).map((r) => r.step))];
  const firstHop = records
    .filter((r) => r.step === steps[0])
    .flatMap((r) => passagesOf(state, r, TOP_PER_CALL).map((x) => x.passage));
  const hopped = records
    .filter((r) => r.step !== steps[0])
    .flatMap((r) => passagesOf(state, r, TOP_PER_CALL).map((x) => x.passage));
  // Coverage of a chain: one passage of the first search together with what later hops found from it.
  // Several unrelated first-hop passages do not add up to an answer (each may hold a different word).
  // The words naming the asked line item ("R&D") are covered by a passage naming it under any of its names.
  const termsOf = (text: string) => {
    const have = termSet(text);
    if (part.lineItem && namesLineItem(text, part.lineItem.item)) for (const t of part.lineItem.terms) have.add(t);
    return have;
  };
  const hopTerms = termsOf(hopped.map(textOf).join("\n"));
  let missingTerms = part.terms;
  for (const p of firstHop) {
    const have = termsOf(textOf(p));
    const missingHere = part.terms.filter((t) => !have.has(t) && !hopTerms.has(t));
    if (missingHere.length < missingTerms.length) missingTerms = missingHere;
  }
  const cov = part.terms.length === 0 ? (found.length > 0 ? 1 : 0) : 1 - missingTerms.length / part.terms.length;
  const missingEntities = part.entities.filter((e) => !texts.some((t) => mentions(t, e)));
  // A chained question ("the chair of the board that approves X") needs at least one hop past its first search,
  // and the head of the chain covered by a passage that hop found.
  // With `hop.bridgeHead`, that passage must also name a bridge: a name the first search's evidence gives
  // that the question does not. The head's word alone ("country") is in many pages about other things.
  const bridgesFound = bridgeHead ? bridgeNames(part, firstHop, state.standaloneQuestion) : undefined;
  const headOk =
    !part.chain ||
    (steps.length >= 2 &&
      (part.head.length === 0 ||
        hopped.some(
          (p) =>
            coverage(part.head, fullText(p)) >= HEAD_COVERAGE &&
            (bridgesFound === undefined || bridgesFound.some((b) => mentions(fullText(p), b))),
        )));
  // The kind of answer asked for, in a sentence that says something the question asks about (not only
  // a sentence that repeats the question's own names).
  const entityTerms = termSet(part.entities.join(" "));
  const asked = [...part.terms, ...part.head].filter((t) => !entityTerms.has(t));
  const typeOk = found.some((p) =>
    unitsOf(p.text).some(
      (u) =>
        hasAnswerType(u.text, part.answerType, state.standaloneQuestion) &&
        (asked.length === 0 || coverage(asked, labelTerms(`${p.title ?? ""} ${u.heading ?? ""} ${u.text}`)) > 0),
    ),
  );
  const confidence = found.reduce((best, p) => Math.max(best, p.score), 0);
  // The period or version asked about ("2024", "Q2", "v2.4") must be in what was found: evidence about
  // another one is a near miss, and naming the missing value lets the next search look for it.
  const periods = constraintsOf(part.text).filter((c) => PERIOD_KINDS.has(c.kind));
  // Of several asked ("between the 2025 and 2026 editions"), one found is enough to go on: the answer
  // compares what it has, and the confidence says how much of the question it covers.
  const missedPeriods = coverConstraints(periods, texts.join("\n")).missing;
  const missingPeriods = [...new Set(periods.map((c) => c.kind))]
    .filter((kind) => periods.filter((c) => c.kind === kind).every((c) => missedPeriods.includes(c)))
    .flatMap((kind) => missedPeriods.filter((c) => c.kind === kind).map((c) => c.text));
  const missing = [
    ...missingEntities,
    ...missingPeriods,
    ...missingTerms,
    ...(headOk ? [] : part.head.filter((t) => !missingTerms.includes(t))),
  ];
  return {
    index,
    text: part.text,
    coverage: Math.round(cov * 1000) / 1000,
    confidence,
    missing,
    sufficient:
      found.length > 0 &&
      missingEntities.length === 0 &&
      missingPeriods.length === 0 &&
      cov >= threshold &&
      headOk &&
      typeOk,
  };
}

export function gradeParts(state: AgentState, parts: QuestionPart[], settings: OfflineSettings): GradeResult {
  const threshold = thresholdAt(settings, state.step);
  const subQuestions = parts.map((part, i) => {
    const grade = gradePart(state, part, i, threshold, settings.hop.bridgeHead, settings.aliases.codes);
    // A part that points back to the first part's answer is not settled before a search started from that
    // answer: other pages naming it in passing were found for the first part's own names.
    const queries = callsForPart(state, i).map((r) => String(r.call.args.query ?? ""));
    return part.referent && !referentSearched(queries, part.referent)
      ? { ...grade, sufficient: false, missing: [part.referent, ...grade.missing] }
      : grade;
  });
  // A change between versions is not settled while a versioned document found has not been searched for it,
  // nor a statement of one version whose counterpart in the other was not found.
  const change = changeAsk(state.standaloneQuestion);
  const first = subQuestions[0];
  if (change && first?.sufficient && versionCalls(state, change, settings.hopK).length > 0) {
    subQuestions[0] = { ...first, sufficient: false };
  }
  return { subQuestions, sufficient: subQuestions.every((g) => g.sufficient), threshold };
}
