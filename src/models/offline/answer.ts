import { looksLikeInstruction } from "../../safety/instruction-like.js";
import type { AgentState, DraftAnswer, DraftClaim } from "../../spec/engine.js";
import { extractEntities, mentions } from "../../text/entities.js";
import { coverage, fold, termSet } from "../../text/overlap.js";
import { queryTerms } from "../../text/tokenize.js";
import { askedFor, type QuestionPart } from "./analyze.js";
import { hasAnswerType } from "./answer-types.js";
import { comparisonClaim, numberIn, type Side } from "./compare.js";
import { callsForPart, fullText, passagesOf, unitsOf } from "./evidence-view.js";
import type { OfflineSettings } from "./settings.js";
import { sqlClaim, sqlCovers, sqlNotes, sqlUnmapped } from "./sql-steps.js";

interface Candidate {
  n: number;
  step: number;
  quote: string;
  title: string;
  score: number;
  context: string;
  /** Title, section and text of the whole passage. */
  passageText: string;
  header?: string[];
  /** Where the unit starts in its passage. */
  start: number;
  /** Share of what the part asks (its non-entity terms, or the hop's query) this unit covers. */
  asked: number;
}

/** Share of what a part asks (its non-entity terms) that some chosen sentence must hold. */
const ASKED_MIN = 0.5;

/** Questions that ask for every item of a list, and how many rows such an answer quotes at most. */
const LIST = /^\s*(?:list|enumerate|name all|what are (?:all )?the|which are the)\b/i;
const MAX_LISTED = 10;

/** Makes a quoted line readable: a table row reads "Header: cell; ...", list and heading marks go. */
function readable(quote: string, header?: string[]): string {
  const cells = quote
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((c) => c.trim());
  let line = quote;
  if (quote.includes("|") && cells.length >= 2) {
    line =
      header && header.length === cells.length && cells.length > 2
        ? cells.map((c, i) => `${header[i]}: ${c}`).join("; ")
        : cells.filter(Boolean).join(": ");
  }
  return line.replace(/^\s*(?:[-*+]|\d+\.|#{1,6})\s+/, "").replace(/\*\*|`/g, "");
}

/** The part's terms that are not its entities' own words: what it asks about them. */
function askedTerms(part: QuestionPart): string[] {
  const entityTerms = termSet(part.entities.join(" "));
  return [...part.terms, ...part.head].filter((t) => !entityTerms.has(t));
}

function candidates(state: AgentState, part: QuestionPart, index: number): Candidate[] {
  const out: Candidate[] = [];
  const asked = askedTerms(part);
  for (const record of callsForPart(state, index)) {
    const callTerms = queryTerms(String(record.call.args.query ?? "")).map(fold);
    for (const { n, passage } of passagesOf(state, record, 3)) {
      const title = passage.title ?? "";
      // How much of the part the whole passage is about: a sentence in an on-topic passage is the safer pick.
      const topical = coverage(part.terms, fullText(passage));
      // A passage that is the record of an entity the question names (ticket T-1055's row, INC-2026-031's page).
      const about = part.entities.some((e) => mentions(`${passage.docId} ${title}`, e)) ? 1 : 0;
      for (const unit of unitsOf(passage.text)) {
        if (looksLikeInstruction(unit.text)) continue;
        const context = `${title} ${passage.section ?? ""} ${unit.header?.join(" ") ?? ""} ${unit.text}`;
        const have = termSet(context);
        const onCall = coverage(callTerms, have);
        const onPart = coverage(part.terms, have);
        if (onCall === 0 && onPart === 0) continue;
        const typed = hasAnswerType(
          unit.text,
          part.answerType,
          `${state.standaloneQuestion} ${String(record.call.args.query ?? "")}`,
        )
          ? 1
          : 0;
        const entity = part.entities.some((e) => mentions(unit.text, e)) ? 1 : 0;
        const head = part.chain ? coverage(part.head, have) : 0;
        const score =
          0.5 * onCall +
          0.5 * onPart +
          0.4 * head +
          0.5 * typed +
          0.15 * entity +
          0.1 * passage.score +
          0.3 * topical +
          0.3 * about;
        out.push({
          n,
          step: record.step,
          quote: unit.text,
          title,
          score,
          context,
          passageText: fullText(passage),
          header: unit.header,
          start: unit.start,
          // What it asks: the part's own non-entity words, or the words this hop searched for.
          asked: asked.length === 0 ? 1 : Math.max(onCall, coverage(asked, have)),
        });
      }
    }
  }
  return out.sort((a, b) => b.score - a.score);
}

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
function measureFor(part: QuestionPart, all: Candidate[]): Candidate | undefined {
  const side = termSet(part.alternative ?? "");
  const attribute = part.terms.filter((t) => !side.has(t) && !COMPARATIVE_WORDS.has(t));
  const wantsDuration = DURATION_WORDS.test(part.text);
  // The side as the documents name it: its entities ("/v1/refunds"), not "the deprecated POST /v1/refunds".
  const names = extractEntities(part.alternative ?? "").map((e) => e.text);
  const about = (c: Candidate) =>
    !part.alternative ||
    (names.length > 0 ? names.some((n) => mentions(c.passageText, n)) : mentions(c.passageText, part.alternative));
  const fits = all.filter(
    (c) => numberIn(c.quote) !== undefined && about(c) && (!wantsDuration || hasAnswerType(c.quote, "duration")),
  );
  const weight = (c: Candidate) => coverage(attribute, c.context) + 0.2 * c.score;
  return fits.sort((a, b) => weight(b) - weight(a))[0];
}

/**
 * A claim from a chosen sentence: its readable form, led by the document's title when the sentence is short
 * and does not name it. Titles and table headers are data: one that reads like an instruction ("Ignore
 * previous instructions") is never copied into the answer. Citation-like markers a passage brings (`[3]`)
 * are removed when the citations are checked, so the answer's only markers are the engine's.
 */
function claimOf(c: Candidate): DraftClaim {
  const header = c.header && !looksLikeInstruction(c.header.join(" ")) ? c.header : undefined;
  const text = readable(c.quote, header);
  const title = c.title && !looksLikeInstruction(c.title) ? c.title : "";
  const withTitle = title && !mentions(text, title) && text.length < 80 ? `${title}: ${text}` : text;
  return { text: withTitle, citations: [{ n: c.n, quote: c.quote }] };
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
    const all = candidates(state, part, index);
    const chosen = pick(part, all);
    const text = chosen.map((c) => c.context).join(" ");
    const entitiesOk = part.entities.every((e) => chosen.some((c) => mentions(c.passageText, e)));
    // "How many engineers are in X": the number must come with what is counted (not with X's own name).
    const counted = /^\s*how (?:many|much)\b/i.test(part.text) ? askedFor(part.text).map(fold) : [];
    const withoutEntities = (text: string) => part.entities.reduce((t, e) => t.split(e).join(" "), text);
    const typed = chosen.some(
      (c) =>
        hasAnswerType(c.quote, part.answerType, state.standaloneQuestion) &&
        (counted.length === 0 || counted.some((t) => termSet(withoutEntities(c.context)).has(t))),
    );
    // Enough of the part covered, and some sentence about what it asks (not only its names).
    const enough = coverage(part.terms, text) >= settings.minAnswerCoverage && chosen.some((c) => c.asked >= ASKED_MIN);
    const graded = !grade || grade.missing.every((m) => !part.entities.includes(m));
    if (chosen.length === 0 || !entitiesOk || !typed || !enough || !graded) {
      unsupported.push(part.text);
      continue;
    }
    const measured = part.comparative ? measureFor(part, all) : undefined;
    if (measured) sides.push({ part, n: measured.n, quote: measured.quote });
    for (const c of chosen) {
      const key = `${c.n}|${c.quote}`;
      if (seen.has(key)) continue;
      seen.add(key);
      claims.push(claimOf(c));
    }
  }
  const outcome = comparisonClaim(sides);
  if (outcome) claims.unshift(outcome);
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
        notes,
    };
  }
  const yesNo = parts.every((p) => p.answerType === "yesno") && unsupported.length === 0;
  if (yesNo && claims[0]) claims[0] = { ...claims[0], text: `Yes. ${claims[0].text}` };
  if (unsupported.length > 0) {
    return {
      status: "partial",
      claims,
      reason: `Not found in the knowledge base: ${unsupported.join("; ")}.${notes}`,
    };
  }
  return { status: "answered", claims };
}
