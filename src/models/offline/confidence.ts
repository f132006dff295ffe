/**
 * Calibrated refusal: a confidence per drafted answer from how much of the question's constraints and
 * content terms the cited evidence covers, and a refusal when it is below the threshold or when the
 * evidence is about another year, quarter or version than asked (a near miss), saying what it found.
 */
import type { EvidenceItem } from "../../spec/answer.js";
import type { AgentState, DraftAnswer } from "../../spec/engine.js";
import { coverage, termSet } from "../../text/overlap.js";
import { type Aliases, aliasNames, evidenceAliases, withAliasNames } from "./aliases.js";
import type { QuestionPart } from "./analyze.js";
import { type Constraint, type Coverage, constraintsOf, coverConstraints } from "./constraints.js";
import { otherSubject } from "./near-miss.js";
import type { RefusalSettings } from "./settings.js";
import { answeredBySql } from "./sql-steps.js";

export interface Assessment {
  /** 0..1: how well the cited evidence covers what the question asks. */
  confidence: number;
  /** Constraints of the question and their coverage by everything cited. */
  constraints: Constraint[];
  cited: Coverage;
  /** Coverage of the constraints by the passages of the first (best) claim alone. */
  lead: number;
  /**
   * For one plain lookup: names and identifiers the best claim's passages miss although another cited
   * passage holds them (the answer is about another site or product than asked, and only a side passage
   * names the one asked about).
   */
  offTarget: Constraint[];
  /** Names and identifiers of the question the best claim's passages do not hold. */
  leadMissing: Constraint[];
  /** Share of the parts' content terms the cited passages hold. */
  terms: number;
}

/** A passage as the assessment reads it: a code the evidence gives for a name of the question reads as the name. */
function passageText(p: EvidenceItem, aliases: Aliases = new Map()): string {
  return withAliasNames(`${p.docId} ${p.title ?? ""} ${p.section ?? ""}\n${p.text}`, aliases);
}

/** The codes the evidence gives for the names the parts give (none unless `on`). */
function partAliases(state: AgentState, parts: readonly QuestionPart[], on: boolean): Aliases {
  return evidenceAliases(
    state.evidence,
    parts.flatMap((p) => aliasNames(p)),
    on,
  );
}

function citedPassages(state: AgentState, claims: DraftAnswer["claims"]): EvidenceItem[] {
  const out: EvidenceItem[] = [];
  for (const claim of claims) {
    for (const c of claim.citations) {
      const p = state.evidence[c.n - 1];
      if (p && !out.includes(p)) out.push(p);
    }
  }
  return out;
}

/**
 * Scores a draft against the question. Parts answered by SQL count as covered: the query filtered the
 * rows by the question's values, and the SQL step refuses what it cannot map.
 */
export function assess(
  state: AgentState,
  parts: readonly QuestionPart[],
  draft: DraftAnswer,
  settings: RefusalSettings,
  codeAliases = false,
): Assessment {
  const aliases = partAliases(state, parts, codeAliases);
  const textOf = (p: EvidenceItem) => passageText(p, aliases);
  const bySql = parts.map((p, i) => answeredBySql(state, p, i));
  const question = parts
    .filter((_, i) => !bySql[i])
    .map((p) => p.text)
    .join(" ");
  const constraints = bySql.every(Boolean) ? [] : constraintsOf(question || state.standaloneQuestion);
  const cited = citedPassages(state, draft.claims);
  const citedText = cited.map(textOf).join("\n");
  const all = coverConstraints(constraints, citedText);
  const firstClaim = draft.claims[0];
  const leadText = firstClaim ? citedPassages(state, [firstClaim]).map(textOf).join("\n") : "";
  const leadCover = coverConstraints(constraints, leadText);
  const lead = leadCover.share;
  const wanted = [...new Set(parts.filter((_, i) => !bySql[i]).flatMap((p) => p.terms))];
  const terms = wanted.length === 0 ? 1 : coverage(wanted, termSet(citedText));
  const w = settings.weights;
  // One plain lookup is answered by its best sentence: that passage should hold what the question names. A
  // chain, a comparison or a compound question spreads over passages, so there only the union counts.
  const single = parts.length === 1 && !parts[0]!.chain && parts[0]!.alternative === undefined;
  const leadWeight = single ? w.lead : 0;
  const mixed =
    (w.constraints * all.share + w.terms * terms + leadWeight * lead) / (w.constraints + w.terms + leadWeight);
  const confidence = cited.length === 0 ? 0 : bySql.every(Boolean) ? 1 : mixed;
  const named = (c: Constraint) => c.kind === "name" || c.kind === "identifier";
  const offTarget = single ? leadCover.missing.filter((c) => named(c) && !all.missing.includes(c)) : [];
  const leadMissing = leadCover.missing.filter(named);
  return {
    confidence: Math.round(confidence * 1000) / 1000,
    constraints,
    cited: all,
    lead,
    terms,
    offTarget,
    leadMissing,
  };
}

/**
 * A cited line labelled by another name than the question asks about, from a passage that does not name the
 * one asked: the answer's first line against the names its claim's passages miss; every other cited line
 * against the names its own passage misses. A side line ("Rotterdam: 7 km/h") next to a line that only names
 * the site asked (its registry row) is the value for another site, not the answer.
 */
function otherSubjectCited(
  state: AgentState,
  draft: DraftAnswer,
  a: Assessment,
  aliases: Aliases,
): { subject: string; missing: Constraint[]; quote: string } | undefined {
  const evidence = state.evidence.map((e) => e.text).join("\n");
  const question = state.standaloneQuestion;
  const named = (c: Constraint) => c.kind === "name" || c.kind === "identifier";
  for (const [i, claim] of draft.claims.entries()) {
    for (const [j, citation] of claim.citations.entries()) {
      const p = state.evidence[citation.n - 1];
      const missing =
        i === 0 && j === 0
          ? a.leadMissing
          : p
            ? coverConstraints(a.constraints, passageText(p, aliases)).missing.filter(named)
            : [];
      const subject = otherSubject(citation.quote, question, missing, evidence);
      if (subject) return { subject, missing, quote: citation.quote };
    }
  }
  return undefined;
}

const list = (values: string[]): string =>
  values.length <= 1 ? (values[0] ?? "") : `${values.slice(0, -1).join(", ")} and ${values.at(-1)}`;

/**
 * The draft with its confidence; refused when the evidence is a near miss or the confidence is below
 * `minConfidence`. A refusal says what the evidence covers instead, and quotes the best claim.
 */
export function calibrate(
  state: AgentState,
  parts: readonly QuestionPart[],
  draft: DraftAnswer,
  settings: RefusalSettings,
  codeAliases = false,
): DraftAnswer {
  if (draft.status === "refused" || draft.claims.length === 0) return { ...draft, confidence: 0 };
  const a = assess(state, parts, draft, settings, codeAliases);
  const best = draft.claims[0]!.text;
  // A near miss refuses one lookup; in a compound question it may concern one part only, so there it
  // lowers the confidence (the missed value counts as uncovered) instead of refusing every part.
  if (settings.nearMiss && a.cited.nearMiss.length > 0 && parts.length === 1) {
    const said = a.cited.nearMiss
      .map((m) => `The evidence covers ${list(m.found.slice(0, 4))}, not ${m.constraint.text}`)
      .join("; ");
    return {
      status: "refused",
      claims: [],
      confidence: a.confidence,
      reason: `${said}: "${best.slice(0, 200)}"`,
    };
  }
  if (settings.offTarget && a.offTarget.length > 0) {
    return {
      status: "refused",
      claims: [],
      confidence: a.confidence,
      reason: `The evidence that answers this is not about ${list(a.offTarget.map((c) => c.text))}: "${best.slice(0, 200)}"`,
    };
  }
  // One lookup whose answering line is labelled by another name than asked ("Rotterdam: 7 km/h" for Lyon).
  const single = parts.length === 1 && !parts[0]!.chain && parts[0]!.alternative === undefined;
  const other =
    settings.otherSubject && single
      ? otherSubjectCited(state, draft, a, partAliases(state, parts, codeAliases))
      : undefined;
  if (other) {
    return {
      status: "refused",
      claims: [],
      confidence: a.confidence,
      reason: `The evidence gives this for ${other.subject}, not ${list(other.missing.map((c) => c.text))}: "${other.quote.slice(0, 200)}"`,
    };
  }
  if (a.confidence < settings.minConfidence) {
    const missing = a.cited.missing.map((c) => c.text);
    return {
      status: "refused",
      claims: [],
      confidence: a.confidence,
      reason:
        `Confidence ${a.confidence.toFixed(2)} is below ${settings.minConfidence}` +
        (missing.length > 0 ? `: the cited evidence does not mention ${list(missing)}` : "") +
        `. Closest found: "${best.slice(0, 200)}"`,
    };
  }
  return { ...draft, confidence: a.confidence };
}
