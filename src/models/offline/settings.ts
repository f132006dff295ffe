import type { Preset } from "../../spec/engine.js";
import type { SupportRules } from "./supporting.js";

/** How the offline engine trades recall against caution; named presets, nested and typed. */
export interface OfflineSettings {
  /** Coverage a sub-question needs at step 1; it falls by `thresholdStep` each step, down to `thresholdFloor`. */
  threshold: number;
  thresholdStep: number;
  thresholdFloor: number;
  /** Passages asked for by the first search of a part, and by later hops. */
  firstK: number;
  hopK: number;
  /** Sources searched per part: the best one, plus others scoring within `sourceMargin` of it. */
  maxSourcesPerPart: number;
  sourceMargin: number;
  /** Bridge entities tried per part and hop. */
  bridgesPerHop: number;
  /** Share of a part's terms the chosen answer sentences must cover, or the part is unsupported. */
  minAnswerCoverage: number;
  /** Calibrated refusal (see confidence.ts). */
  refusal: RefusalSettings;
  /** Questions answered from a table by SQL. */
  sql: SqlSettings;
  /** Retrieval: how the loop searches beyond the part's best sources. */
  retrieval: {
    /** Passages of the first search of a part over every readable source at once (0: none). */
    broadK: number;
    /**
     * How much a line of a passage naming the question's entity counts as touching the part when it shares
     * none of its words: enough to make its names candidates for the next hop, less than any real overlap.
     */
    anchorTouch: number;
  };
  /** How answers are composed (direct answer, yes/no, superseded values). */
  answer: AnswerSettings;
  /** Multi-hop questions: where the chain starts and which names it follows. */
  hop: HopSettings;
  /** Names and the codes that stand for them (aliases.ts). */
  aliases: AliasSettings;
  /** How the question's names are read before any passage must hold them (analyze.ts `nameAsWritten`). */
  names: NameSettings;
}

export interface NameSettings {
  /**
   * A plural possessive's apostrophe is no part of the name ("Harlow Brothers' revenue" names "Harlow
   * Brothers"): kept, no passage spells the name that way, and the part is refused for a name it never finds.
   */
  possessive: boolean;
  /**
   * A reporting period written as a code ("FY2023", "Q3 FY23") is no name a passage must spell: a filing
   * states it as "Year ended December 31, 2023" or as a column year, and the year is a constraint already
   * (constraints.ts), which also refuses evidence about another year.
   */
  periods: boolean;
  /**
   * A side of a comparison ("Which of them is Danish, Ole Brandt or Kai Moe?") keeps its own names and the
   * attribute's apart: read whole, the attribute's last capitalised word and the side's name make one name
   * ("Danish Ole Brandt") that no passage holds, and the side is refused.
   */
  seams: boolean;
}

const NAMES: NameSettings = { possessive: true, periods: true, seams: true };

export interface AliasSettings {
  /**
   * A code the gathered evidence gives for a name the question gives (a directory row "| QRV | Quarrow Docks |",
   * or "Quarrow Docks (QRV)") counts as that name when grading and when choosing the answer's units.
   */
  codes: boolean;
  /**
   * When a name the question gives is not found but the evidence holds rows keyed by codes, search for the
   * name alone (to find the directory row that gives its code), then for its code with the missing words.
   */
  searchCodes: boolean;
}

const ALIASES: AliasSettings = { codes: true, searchCodes: true };

export interface HopSettings {
  /**
   * A thing the question describes by a participle ("a network founded by <name>", "der von <Name>
   * gegründete Verlag": participle.ts) is a link of a chain, like a relative clause: the search hops from
   * the described thing before answering.
   */
  participleChains: boolean;
  /**
   * A later clause naming a record's kind with a definite article ("..., and when was the order closed?")
   * refers to the record an earlier clause names by its identifier ("order WO-17"): it carries that name,
   * as a pronoun does, so its search and its sentences are about that record, not any record of the kind.
   */
  definiteRefs: boolean;
  /**
   * A name the question gives that nothing found yet mentions is searched for first (with a few of the
   * part's missing words), before any bridge: a chain starts at the thing the question names.
   */
  anchorFirst: boolean;
  /**
   * Added to a bridge candidate's score when its passage mentions a name the question gives. Off by default:
   * 0.5 raised musique dev recall@5 by 0.03 but lost a northwind test question (a bridge of the incident's
   * own page instead of the team's), so it did not hold on both halves.
   */
  anchorBonus: number;
  /**
   * A hop's bridges come from the passages naming the link the latest hop followed (or, after the first
   * search, a name the question gives) when the search found any (chain-links.ts); the names of the other
   * passages it brought up are rivals of the answer, not links.
   */
  chainSeeds: boolean;
  /**
   * Added to a bridge candidate when a probe of the hop it would make finds a new passage naming it and
   * holding a word the hop wants (chain-links.ts `leadsOn`); 0 turns the probe off.
   */
  lookahead: number;
  /**
   * Taken from a bridge candidate's score, times its commonness (chain-links.ts `commonness`: the squared log
   * of the documents naming it over the log of all documents), when the entity graph counts them. Off by
   * default: at 1 (with skipNameWords and the strict title probe) musique recall@5 rose 0.630 -> 0.642 and
   * correctness 0.19 -> 0.23, but the company sets lost 2-3 questions each: a company's own name, on nearly
   * every page, was the hop that found a changelog or kept an unanswerable question refused.
   */
  commonPenalty: number;
  /**
   * The probe's page of its own for a bridge candidate must be titled after it (chain-links.ts `titledAfter`:
   * the name is at least half of the title's words), not merely mention it. Off by default: with it, musique
   * and hotpotqa kept their gains but kestrel lost two questions whose hop from a short name ("<hub code>",
   * the company's name) found the page through a longer title.
   */
  strictTitle: boolean;
  /** A bridge is never an identifier of the same shape as one the question names (chain-links.ts `siblingRecord`). */
  skipSiblings: boolean;
  /**
   * A bridge is never a one-word name its sentence only uses to describe something ("an <Adjective> film":
   * chain-links.ts `modifierOnly`): a nationality or style links every page described the same way.
   */
  skipModifiers: boolean;
  /**
   * A hop searches for the bridge with the part's missing words less the words of the names the part gives
   * (plan.ts `hopWords`): those bring back the page the chain started from, not the bridge's.
   */
  skipNameWords: boolean;
  /** Words of the part's missing terms added to an anchor's search. */
  anchorWords: number;
  /**
   * After hops, answer with the value the bridge's evidence gives (then the sentence naming the bridge),
   * instead of the sentence that covers most of the question's words.
   */
  bridgedAnswer: boolean;
  /**
   * A chained part's hop from a bridge searches for what is asked of it (the head: "country", "spouse")
   * before the words still missing, which a first search left over from the bridge's own description.
   */
  headQuery: boolean;
  /**
   * A chain is answered only when a later hop's passage gives the head AND names a bridge the first
   * search found (the asked attribute of THAT thing), not when any page holds the head's words. Off by
   * default: on the dev sets it kept musique and hotpotqa correctness and recall@5 where they were and
   * lowered citation precision (musique -0.03, hotpotqa -0.03): more hops, no better answers yet.
   */
  bridgeHead: boolean;
  /**
   * Added to a bridge candidate of the kind the question asks for: its name or its record field holds one of
   * the part's words that is not a name the part gives ("<Name> County" for "which county"; bridge-type.ts).
   */
  typeFit: number;
  /**
   * A record field's value is a bridge even when the entity extractor sees no name in it (a bare site code,
   * a lower-case name under a field of the kind asked; bridge-type.ts).
   */
  fieldValues: boolean;
  /**
   * How much a unit naming the bridge itself belongs to it when the bridged answer is chosen (a passage titled
   * after the bridge: 1; one mentioning it anywhere: 0.5).
   */
  unitOwner: number;
  /** A bridged answer cites only its chain (the bridge's unit and the unit answering for the bridge). */
  chainOnly: boolean;
  /**
   * A bridged answer cites the bridge's unit only when that unit names something of the question the answer's
   * own passage does not (bridge-answer.ts `anchorNeeded`): otherwise the answer's passage ties the value to the
   * question by itself, and the bridge's unit cites another document for nothing.
   */
  neededAnchorOnly: boolean;
  /**
   * Stop searching for a part once a search that started with a name it gives found nothing naming it
   * (plan.ts `searchedUnfound`). On the full sets such a name was found by a later hop in 2 of 41 runs,
   * neither answered right; the hops after it were 104 steps spent before the same refusal.
   */
  stopUnfound: boolean;
  /**
   * A hop from a code (a site, account or record code: key-link.ts `keyLike`) also looks up the entry keyed
   * by it (the `lookup` tool: its record, the directory row it heads), not only passages that mention it.
   */
  lookupKeys: boolean;
  /**
   * With `lookupKeys`, a plain name that a record gives as a field's whole value ("carrier: Zuid Trans") is
   * looked up too (key-link.ts `lookupWorthy`): the register keyed by it (a table of carriers) says more about it.
   * Off: on the full sets it changed no right answer; it brought one northwind question its gold page (a service
   * named in lower case), whose three-hop answer then failed and was refused instead of answered wrong.
   */
  lookupNames: boolean;
  /**
   * In a passage of a language that capitalises every noun (German), a capitalised word alone is no bridge:
   * only names of two capitalised words or words marked by more than a first capital (codes, "NordRail").
   */
  nounCapitals: boolean;
  /**
   * A later clause that points back by kind ("..., and what is that depot's phone number") asks about the
   * value of that kind the first part's chain reached (its record's "depot: <name>" field), once the evidence
   * gives one: the clause searches and is graded with that value in place of the first part's own names
   * (referent.ts).
   */
  referents: boolean;
}

const HOP: HopSettings = {
  participleChains: true,
  definiteRefs: true,
  anchorFirst: true,
  anchorBonus: 0,
  chainSeeds: true,
  lookahead: 0.5,
  commonPenalty: 0,
  strictTitle: false,
  skipSiblings: true,
  skipModifiers: true,
  anchorWords: 2,
  skipNameWords: true,
  bridgedAnswer: true,
  headQuery: true,
  bridgeHead: false,
  typeFit: 0.5,
  fieldValues: true,
  unitOwner: 0.8,
  chainOnly: true,
  neededAnchorOnly: true,
  stopUnfound: true,
  referents: true,
  lookupKeys: true,
  lookupNames: false,
  nounCapitals: true,
};

export interface AnswerSettings {
  /** Share of the asked terms a sentence must state before its negation (or none) answers yes or no. */
  polarityCoverage: number;
  /** A unit of another document competes as a newer or older value when it scores this share of the answer's. */
  rivalScoreShare: number;
  /** Weight of a labelled number when choosing each side's value in a comparison. */
  measureLabelWeight: number;
  /** CJK words of at least this many characters count as names the answer's sentences must hold. */
  cjkNameLength: number;
  /** Share of the asked terms a prose sentence must hold for its value to be the direct answer. */
  proseValueCoverage: number;
  /** Longest value span (characters) a direct answer puts into the question's words. */
  maxValueLength: number;
  /** Headings without a figure, table-of-contents lines and contents passages never answer (answer-units.ts). */
  skipBoilerplate: boolean;
  /** When a part names identifiers (Q-2042), rows and fields of other records of that kind never answer. */
  anchorIdentifiers: boolean;
  /** Score a unit gains when one of its fields is labelled by what is asked ("status: closed" for "what status"). */
  fieldLabelWeight: number;
  /**
   * A supporting sentence of another document than the ones the answer already cites is kept only when it
   * adds a constraint of the question or a link of the chain (supporting.ts); otherwise it only repeats the
   * answer or is context, and its citation would name a source the answer does not use.
   */
  citeOnlyWhatAdds: boolean;
  /** How strictly a sentence of another document earns its citation (supporting.ts `SupportRules`). */
  support: SupportRules;
  /**
   * When the value that answers comes from a document that is not the page of what the question names, and
   * that page (its title or file name names it) states the same value, the page is cited instead: it is
   * the source about the thing asked, the other only repeats its value (an incident's timeline giving a job's
   * start time that the job's own page states).
   */
  citeNamedPage: boolean;
  /**
   * Without a value, a chain's last hop stays cited (without earning it as a supporting sentence) only when it
   * is of the bridge the best sentence names (its passage or title names a name of that sentence the question
   * does not give) or is a field labelled with what is asked. A last search that found neither found another
   * thing's sentence sharing the question's words: citing it named a source the answer does not stand on.
   */
  lastHopOnBridge: boolean;
  /**
   * The same for a one-hop part: a sentence a later search step found stays cited without earning it only
   * when it is of the bridge the best sentence names or a field labelled with what is asked. A later step's
   * search that matched the part's common words ("company", "team") elsewhere found another thing's sentence.
   */
  laterStepOnBridge: boolean;
  /**
   * A last hop kept for being a field labelled with what is asked must name more of the ask in its label than
   * the best sentence's own field: when the best sentence already is such a field ("Pager rota: ops-a"), a
   * later field of a weaker label ("rota: weekly") is another record's value, not where the chain ended.
   */
  labelRivals: boolean;
  /**
   * A question about the earlier state ("before the update") is answered by the older document of a series,
   * which alone is cited; the newer value is named with it. Off: the newer answers, the older is named as superseded.
   */
  priorAnswersFromOlder: boolean;
  /**
   * A chosen unit of a superseded document gives way to the unit of the newer document of its series that shares
   * at least this share of its words other than figures (its row or clause in the next edition; newer-twin.ts). 0: off.
   */
  newerTwinShare: number;
  /**
   * Most sentences added to an answer that misses a name the question gives, each from a passage of the
   * evidence that names it (complete-names.ts); 0 turns it off.
   */
  completeNames: number;
  /**
   * Units are scored with other forms of the part's words ("quarantine" in "quarantined") and the words of
   * snake_case field names ("delivered_on"); see word-forms.ts. Answer selection only, not retrieval.
   */
  wordForms: boolean;
  /**
   * Weight (0..1) in the sufficiency check of a question word that no passage of the gathered evidence holds
   * (a descriptive word such as "assorted" or "notable" the sources phrase otherwise); words the evidence
   * holds, words naming what is asked, and numbers weigh 1. 1 turns it off.
   */
  unheldWordWeight: number;
  /**
   * Score a unit gains when a range it states ("above 5,000", "1,000 to 5,000") holds an amount the question
   * states, and loses when its ranges all exclude it (thresholds.ts); 0 turns it off.
   */
  thresholdWeight: number;
  /**
   * A row of `header: value` cells after its label (a filing's table as the PDF loader writes it: "Net sales |
   * Year ended 2023: 4,210 | 2022: 3,980") is a row of its own, not the header of the rows below it, nor a
   * line of a table of contents ending in a page number (a statement page of small figures is not contents).
   */
  labelledRows: boolean;
  /**
   * A part asking for one line item of a financial statement (revenue, net income, R&D: line-items.ts) is
   * answered only by a row whose label names that item under any of its usual names (or, for a row labelled
   * by no item, whose headers do) and by sentences naming it: a neighbouring row is not its answer, so an item
   * no statement holds is refused.
   */
  lineItems: boolean;
  /**
   * Score a statement row gains as its label fits the asked line item: all its words besides the item's name
   * asked ("Total net sales" for revenue), rather than a part of it ("Net sales: Products"); 0 turns it off.
   */
  lineItemRowWeight: number;
  /**
   * The value of a row that carries its headers in its cells ("Net sales | Year ended 2024: 4,210 | 2023:
   * 3,980") is the cell whose header names what is asked (the asked year's), not the row's first figure.
   */
  periodCells: boolean;
  /**
   * A part asking how many times (or how often) is answered by a count said in words ("twice", "a three-time
   * winner") as well as by a number with its counted word.
   */
  countAdverbs: boolean;
}

export interface SqlSettings {
  /**
   * Text columns with at most this many distinct values have all of them read (one traced SELECT DISTINCT
   * probe), so a question's words can be matched against every value, not only the most frequent.
   */
  maxProbeValues: number;
  /**
   * Question words no column, value, date or cue accounts for that a SQL answer may still leave out; the
   * answer is then partial and names them. More than this and the question is not answered from the table.
   */
  maxUnmapped: number;
}

/** When a drafted answer is refused for weak support. */
export interface RefusalSettings {
  /** Answers whose confidence is below this are refused (`--min-confidence` overrides). */
  minConfidence: number;
  /** Refuse when the cited evidence is about another year, quarter or version than asked. */
  nearMiss: boolean;
  /** Refuse a plain lookup whose best claim's passage misses a name the question asks about (another site, product). */
  offTarget: boolean;
  /** Refuse a plain lookup whose answering line is labelled by another name than the one asked (near-miss.ts). */
  otherSubject: boolean;
  /** How the confidence mixes constraint coverage (all cited), content-term coverage, and the best claim's coverage. */
  weights: { constraints: number; terms: number; lead: number };
}

/** Calibrated on the dev halves of the shared sets (see `ferret eval`: refusal_calibration in report.json). */
const REFUSAL: RefusalSettings = {
  minConfidence: 0.3,
  nearMiss: true,
  // Off by default: multi-hop questions that read as one lookup ("Which Danish band from Copenhagen ...")
  // have their best sentence in a passage that names only the answer; on the dev sets it refused more
  // answerable questions than unanswerable ones.
  offTarget: false,
  otherSubject: true,
  weights: { constraints: 2, terms: 1, lead: 2 },
};

const ANSWER: AnswerSettings = {
  polarityCoverage: 0.75,
  rivalScoreShare: 0.8,
  measureLabelWeight: 0.5,
  cjkNameLength: 3,
  proseValueCoverage: 0.6,
  maxValueLength: 80,
  skipBoilerplate: true,
  anchorIdentifiers: true,
  fieldLabelWeight: 0.3,
  citeOnlyWhatAdds: true,
  support: { linkInPassage: false, constraintSaysAsked: true },
  citeNamedPage: true,
  lastHopOnBridge: true,
  laterStepOnBridge: true,
  labelRivals: true,
  priorAnswersFromOlder: true,
  newerTwinShare: 0.9,
  completeNames: 2,
  wordForms: true,
  unheldWordWeight: 0.5,
  thresholdWeight: 0.5,
  labelledRows: true,
  lineItems: true,
  lineItemRowWeight: 0.5,
  periodCells: true,
  countAdverbs: true,
};

export const OFFLINE_PRESETS: Record<Preset, OfflineSettings> = {
  conservative: {
    threshold: 0.85,
    thresholdStep: 0.05,
    thresholdFloor: 0.65,
    firstK: 4,
    hopK: 3,
    maxSourcesPerPart: 1,
    sourceMargin: 0.9,
    bridgesPerHop: 1,
    minAnswerCoverage: 0.5,
    refusal: { ...REFUSAL, minConfidence: REFUSAL.minConfidence + 0.1, offTarget: true },
    sql: { maxProbeValues: 60, maxUnmapped: 0 },
    retrieval: { broadK: 3, anchorTouch: 0.05 },
    answer: ANSWER,
    hop: HOP,
    aliases: ALIASES,
    names: NAMES,
  },
  balanced: {
    threshold: 0.8,
    thresholdStep: 0.1,
    thresholdFloor: 0.5,
    firstK: 3,
    hopK: 3,
    maxSourcesPerPart: 2,
    sourceMargin: 0.8,
    bridgesPerHop: 1,
    minAnswerCoverage: 0.34,
    refusal: REFUSAL,
    sql: { maxProbeValues: 60, maxUnmapped: 1 },
    retrieval: { broadK: 3, anchorTouch: 0.05 },
    answer: ANSWER,
    hop: HOP,
    aliases: ALIASES,
    names: NAMES,
  },
  thorough: {
    threshold: 0.85,
    thresholdStep: 0.1,
    thresholdFloor: 0.4,
    firstK: 5,
    hopK: 4,
    maxSourcesPerPart: 3,
    sourceMargin: 0.6,
    bridgesPerHop: 2,
    minAnswerCoverage: 0.3,
    refusal: REFUSAL,
    sql: { maxProbeValues: 100, maxUnmapped: 1 },
    retrieval: { broadK: 5, anchorTouch: 0.05 },
    answer: ANSWER,
    hop: HOP,
    aliases: ALIASES,
    names: NAMES,
  },
};

export function thresholdAt(settings: OfflineSettings, step: number): number {
  return Math.max(settings.thresholdFloor, settings.threshold - settings.thresholdStep * Math.max(0, step - 1));
}

/**
 * Weights of the language detector (language.ts): a distinctive word, a word both languages spell, and the
 * German letters ä ö ü ß; German wins when it outscores English and reaches `minGerman`.
 */
export const LANGUAGE_DETECTION = {
  strongWord: 2,
  weakWord: 1,
  germanLetters: 3,
  minGerman: 2,
  maxWords: 40,
  maxChars: 400,
} as const;
