import type { EvidenceItem } from "../../spec/answer.js";
import type { AgentState, CallRecord } from "../../spec/engine.js";
import { mentions } from "../../text/entities.js";
import { coverage, fold, labelTerms, termSet, weightedCoverage } from "../../text/overlap.js";
import { isCjk, normalise, queryTerms, words } from "../../text/tokenize.js";
import { aliasNames, evidenceAliases, mentionsAliased, withAliasNames } from "./aliases.js";
import { type AnswerType, askedFor, type QuestionPart } from "./analyze.js";
import { hasAnswerType } from "./answer-types.js";
import {
  cleanLead,
  collectionsOf,
  identifiersIn,
  isBoilerplateUnit,
  isContentsPassage,
  keyOnly,
  kindNouns,
  labelAnswers,
  ofOtherRecord,
} from "./answer-units.js";
import { callsForPart, fullText, passagesOf, type Unit, unitsOf } from "./evidence-view.js";
import { askedLineItem, rowFit, statesLineItem } from "./line-items.js";
import { rangeFit, statedAmounts } from "./thresholds.js";
import { fieldsOf } from "./value-span.js";
import { formCoverage, formsOf } from "./word-forms.js";

/** A quotable unit of the gathered evidence, scored for one part of the question. */
export interface Candidate {
  n: number;
  step: number;
  quote: string;
  title: string;
  score: number;
  context: string;
  /** Title, section and text of the whole passage. */
  passageText: string;
  header?: string[];
  /** The heading the unit sits under inside its passage ("v2.3 (2026-03-01)"). */
  heading?: string;
  /** Where the unit starts in its passage. */
  start: number;
  /** Share of what the part asks (its non-entity terms, or the hop's query) this unit covers. */
  asked: number;
  /** The passage it is from (document, source, `updatedAt`). */
  item: EvidenceItem;
  /** -1 when every range it states excludes the amounts the question states, 1 when one holds one (thresholds.ts). */
  fit?: -1 | 0 | 1;
}

/**
 * A part's terms without the CJK character pairs that straddle two words (地面站主天线 gives 站主 and 主天,
 * which no document need contain): the pairs help retrieval match differently segmented text, but a
 * sentence that answers the question holds its words, not its seams.
 */
export function wordTerms(part: Pick<QuestionPart, "text" | "terms">): string[] {
  const ws = new Set(words(part.text).map((w) => fold(normalise(w.word))));
  const kept = part.terms.filter((t) => !isCjk(t) || ws.has(t));
  return kept.length > 0 ? kept : part.terms;
}

/**
 * CJK text has no capitals to mark names, so a long CJK word of the question (名古屋, ハンブルク: at least
 * `minLength` characters) stands in for an entity: the chosen sentences must hold every one.
 */
export function cjkNamesHeld(part: Pick<QuestionPart, "text" | "terms">, text: string, minLength: number): boolean {
  const have = termSet(text);
  return wordTerms(part).every((t) => !isCjk(t) || t.length < minLength || have.has(t));
}

/** The part's terms that are not its entities' own words: what it asks about them. */
export function askedTerms(part: QuestionPart): string[] {
  const entityTerms = termSet(part.entities.join(" "));
  return [...wordTerms(part), ...part.head].filter((t) => !entityTerms.has(t));
}

/** A field value that is a code or key (m_24691, T-1087): one token, starting with a letter, holding a digit. */
const CODE_VALUE = /^\p{L}[\p{L}\d_./-]*\d[\p{L}\d_./-]*$/u;

/**
 * The words of a unit's field names ("delivered_on" gives "delivered"): a `delivered_on: 2025-04-01` line
 * states when something was delivered. A field holding a code names another record ("merchant_id:
 * m_24691" points at a merchant, it says nothing about one), so its name adds nothing.
 */
export function fieldNameTerms(unit: { text: string; header?: string[] }): string[] {
  const out: string[] = [];
  for (const f of fieldsOf(unit.text, unit.header)) {
    const value = unit.text.slice(f.start, f.end).replace(/[*`]/g, "").trim();
    if (value === "" || CODE_VALUE.test(value)) continue;
    out.push(...labelTerms(f.label));
  }
  return out;
}

/**
 * How much each (folded) word of the part counts when measuring how much of it a sentence states: a word no
 * passage of the gathered evidence holds weighs `unheld` (a descriptive word the sources phrase otherwise:
 * it tells little about whether a sentence answers); words the evidence holds, the words naming what is
 * asked for, and numbers weigh 1.
 */
export function wordWeight(state: AgentState, part: Pick<QuestionPart, "text" | "terms">, unheld: number) {
  if (unheld >= 1) return () => 1;
  const full = new Set([...askedFor(part.text).map(fold), ...part.terms.filter((t) => /\d/.test(t)).map(fold)]);
  let held: Set<string> | undefined;
  return (term: string): number => {
    if (full.has(term)) return 1;
    held ??= termSet(state.evidence.map((e) => e.text).join("\n"));
    return held.has(term) ? 1 : unheld;
  };
}

/** Which units may answer and how fields count (see answer-units.ts and AnswerSettings). */
export interface CandidateOptions {
  /** A filing's row of `header: value` cells is a row, never its table's header (evidence-view.ts `UnitOptions`). */
  labelledRows?: boolean;
  /**
   * A part asking for one statement line item ("revenue in 2024") is answered only by units that state it:
   * rows labelled by it (or by its synonyms, line-items.ts) and sentences naming it (settings.answer.lineItems).
   */
  lineItems?: boolean;
  /** Added to a statement row as its label fits the asked line item (line-items.ts `rowFit`); 0 or absent: off. */
  lineItemRowWeight?: number;
  /** Skip headings, lines of a table of contents and whole contents passages. */
  skipBoilerplate: boolean;
  /** Skip rows and fields of records of other identifiers than the question names. */
  anchorIdentifiers: boolean;
  /** Added to the score of a unit with a field whose label names what is asked. */
  fieldLabelWeight: number;
  /**
   * What the part says counts in other forms of its words too ("quarantine" in "quarantined"; word-forms.ts),
   * and a snake_case field name in its words ("delivered_on" states "delivered").
   */
  wordForms: boolean;
  /**
   * Added to a unit whose stated range ("above 5,000", "1,000 to 5,000") holds an amount the question states,
   * taken from one whose ranges all exclude it (thresholds.ts); 0 or absent turns it off.
   */
  thresholdWeight?: number;
  /** Weight of a part's word no gathered passage holds in `asked` (see `wordWeight`); 1 or absent: all count alike. */
  unheldWordWeight?: number;
  /** A code the evidence gives for a name of the part counts as that name (settings.aliases.codes). */
  codeAliases?: boolean;
}

/** A field labelled by what is asked gains `weight`; a line that is only the asked record's key loses it. */
function fieldWeight(unit: Unit, asked: string[], named: string[], weight: number): number {
  if (weight === 0) return 0;
  if (labelAnswers(unit, asked, named)) return weight;
  return keyOnly(unit, named) ? -weight : 0;
}

const DEFAULT_OPTIONS: CandidateOptions = {
  skipBoilerplate: true,
  anchorIdentifiers: true,
  fieldLabelWeight: 0.3,
  wordForms: true,
};

/**
 * The calls a part's candidates come from, with the passages and query terms to weigh them by: the part's
 * own calls, and the record the question names by its id wherever another part found it. "What happened in
 * NM-29, and what was done?" asks both of NM-29, though only the first clause says so.
 */
export function evidenceForPart(
  state: AgentState,
  index: number,
  askedIds: readonly string[],
): { record: CallRecord; passages: { n: number; passage: EvidenceItem }[]; callTerms: string[] }[] {
  const own = callsForPart(state, index);
  const out = own.map((record) => ({
    record,
    passages: passagesOf(state, record, 3),
    callTerms: queryTerms(String(record.call.args.query ?? "")).map(fold),
  }));
  if (askedIds.length === 0) return out;
  const asked = new Set(askedIds);
  const seen = new Set(out.flatMap((e) => e.passages.map((p) => p.n)));
  const keyOf = (docId: string) => docId.slice(docId.indexOf("#") + 1).toUpperCase();
  for (const record of state.calls) {
    if (own.includes(record)) continue;
    const named = passagesOf(state, record, 3).filter(
      (p) => p.passage.docId.includes("#") && asked.has(keyOf(p.passage.docId)) && !seen.has(p.n),
    );
    if (named.length === 0) continue;
    for (const p of named) seen.add(p.n);
    // Weighed by the part's own words, not by the other clause's query.
    out.push({ record, passages: named, callTerms: [] });
  }
  return out;
}

/** Every unit of the evidence found for a part, scored by how well it answers the part, best first. */
export function candidates(
  state: AgentState,
  part: QuestionPart,
  index: number,
  kind: AnswerType,
  filter: CandidateOptions = DEFAULT_OPTIONS,
): Candidate[] {
  const out: Candidate[] = [];
  const asked = askedTerms(part);
  const amounts = filter.thresholdWeight ? statedAmounts(state.standaloneQuestion) : [];
  const weight = wordWeight(state, part, filter.unheldWordWeight ?? 1);
  const named = part.entities;
  const entityTerms = termSet(named.join(" "));
  // A row keyed by the code the evidence gives for a name ("| QRV | ..." for Quarrow) is about that name.
  const aliases = evidenceAliases(state.evidence, aliasNames(part), filter.codeAliases === true);
  // What a field's label must name to answer: the asked terms, not the kind of the record named ("ticket").
  const kinds = new Set(kindNouns(state.standaloneQuestion));
  const labelAsked = asked.filter((t) => !kinds.has(t));
  const lineItem = filter.lineItems ? askedLineItem(part.text) : undefined;
  const partTerms = new Set(part.terms);
  const itemNames = lineItem === undefined ? "" : ` ${lineItem.names.join(" ")}`;
  const askedIds = filter.anchorIdentifiers ? identifiersIn(state.standaloneQuestion) : [];
  const askedCollections = collectionsOf(
    state.calls.flatMap((r) => passagesOf(state, r, 3).map((p) => p.passage.docId)),
    askedIds,
  );
  for (const { record, passages, callTerms } of evidenceForPart(state, index, askedIds)) {
    // A search for the question's names alone ("Lyon") finds units that name them, which says nothing about
    // whether they hold what is asked of them: such a call's words do not count as what is asked.
    const callAsked = callTerms.every((t) => entityTerms.has(t)) ? [] : callTerms;
    for (const { n, passage } of passages) {
      const title = passage.title ?? "";
      const passageText = withAliasNames(fullText(passage), aliases);
      // How much of the part the whole passage is about: a sentence in an on-topic passage is the safer pick.
      const topical = coverage(part.terms, passageText);
      // A passage that is the record of an entity the question names (ticket Q-2042's row, REQ-2031-007's page).
      const about = part.entities.some((e) => mentions(`${passage.docId} ${title}`, e)) ? 1 : 0;
      if (filter.skipBoilerplate && isContentsPassage(passage, { labelledRows: filter.labelledRows !== false }))
        continue;
      for (const whole of unitsOf(passage.text, { labelledRows: filter.labelledRows !== false })) {
        // A unit with an instruction after what it states keeps its clean lead (still a slice of the passage).
        const lead = cleanLead(whole.text);
        if (lead === undefined) continue;
        const unit = lead === whole.text ? whole : { ...whole, text: lead, end: whole.start + lead.length };
        if (filter.skipBoilerplate && isBoilerplateUnit(unit.text)) continue;
        if (ofOtherRecord(unit, passage.docId, askedIds, askedCollections)) continue;
        if (lineItem !== undefined && !statesLineItem(unit, lineItem.item)) continue;
        // The heading the unit sits under names what it states ("## Signatures" over "Every call carries ...").
        // A unit stating the asked line item states it under the name the question gives it ("net sales" is
        // "revenue"): that name is part of what the unit says.
        const context = withAliasNames(
          `${title} ${passage.section ?? ""} ${unit.heading ?? ""} ${unit.header?.join(" ") ?? ""} ${unit.text}${itemNames}`,
          aliases,
        );
        const have = termSet(context);
        // A field's snake_case name states its words; other forms of the part's words count as them.
        if (filter.wordForms) for (const t of fieldNameTerms(unit)) if (!kinds.has(t)) have.add(t);
        const forms = filter.wordForms ? formsOf(have) : undefined;
        const cover = (wanted: string[]) => (forms ? formCoverage(wanted, forms) : coverage(wanted, have));
        const onCall = coverage(callTerms, have);
        const onPart = cover(part.terms);
        if (onCall === 0 && onPart === 0) continue;
        const typed = hasAnswerType(
          unit.text,
          kind,
          `${state.standaloneQuestion} ${String(record.call.args.query ?? "")}`,
        )
          ? 1
          : 0;
        const entity = part.entities.some((e) => mentionsAliased(unit.text, e, aliases)) ? 1 : 0;
        const fit = rangeFit(amounts, unit.text);
        const head = part.chain ? coverage(part.head, have) : 0;
        const score =
          0.5 * onCall +
          0.5 * onPart +
          0.4 * head +
          0.5 * typed +
          0.15 * entity +
          0.1 * passage.score +
          0.3 * topical +
          0.3 * about +
          (filter.thresholdWeight ?? 0) * fit +
          // A statement row counts in the statement of what the part names (not another company's).
          (lineItem && filter.lineItemRowWeight && named.every((e) => mentions(passageText, e))
            ? filter.lineItemRowWeight * rowFit(unit, lineItem.item, partTerms)
            : 0) +
          // A field counts in a passage about what the part names (not a glossary row of the asked word).
          (named.every((e) => mentions(passageText, e))
            ? fieldWeight(unit, labelAsked, named, filter.fieldLabelWeight)
            : 0);
        out.push({
          n,
          step: record.step,
          quote: unit.text,
          title,
          score,
          context,
          passageText,
          header: unit.header,
          heading: unit.heading,
          start: unit.start,
          // What it asks: the part's own non-entity words, or the words this hop searched for.
          asked:
            asked.length === 0
              ? 1
              : Math.max(
                  coverage(callAsked, have),
                  forms ? formCoverage(asked, forms, undefined, weight) : weightedCoverage(asked, have, weight),
                ),
          item: passage,
          fit,
        });
      }
    }
  }
  return out.sort((a, b) => b.score - a.score);
}
