import { extractEntities } from "../../text/entities.js";
import { fold } from "../../text/overlap.js";
import { queryTerms } from "../../text/tokenize.js";

export type AnswerType = "person" | "date" | "number" | "duration" | "yesno" | "entity" | "fact";

/** One lookup a question needs. */
export interface QuestionPart {
  text: string;
  /** What to search for. */
  query: string;
  /** Content terms (folded) the evidence must cover. */
  terms: string[];
  /** Entity strings the evidence must mention. */
  entities: string[];
  /** For a chained question ("who leads the team that owns X"): terms of the head clause, answered last. */
  head: string[];
  chain: boolean;
  answerType: AnswerType;
  aggregation: boolean;
  /** For one side of a comparison: the alternative this part is about, and the comparative asked. */
  alternative?: string;
  comparative?: "max" | "min";
}

/** Question words that say what kind of answer is wanted but are not searched for. */
const GENERIC = new Set(
  (
    "many much long which current currently normally roughly exactly approximately actually still kind kinds type " +
    "name named called does did do mean means example"
  ).split(" "),
);

const QUESTION_START =
  "(?:who|whom|whose|what|when|where|which|why|how|is|are|was|were|does|do|did|can|could|has|have|had|will|would|should)";
const WH = "(?:who|whom|whose|what|when|where|which|why|how)";
// A new clause starts at "; ", at ", and"/" and" before a question word or auxiliary, or at a bare comma
// before a question word (a comma before "have ..." is more often an apposition: "unresolved, i.e. have status").
const SPLIT = new RegExp(
  `\\s*(?:;\\s*(?=${QUESTION_START}\\b)|,\\s*(?:and|but)\\s+(?=${QUESTION_START}\\b)|\\s+(?:and|but)\\s+(?=${QUESTION_START}\\b)|,\\s*(?=${WH}\\b))`,
  "i",
);
const PRONOUN = /\b(?:it|its|they|their|them|that|this|these|those|he|she|his|her|there)\b/i;
const RELATIVE = /\s(?:that|which|whose|who|whom|where)\s/gi;
const AGGREGATION =
  /\b(?:how many|number of|count|total|average|mean|sum of|most|fewest|least|maximum|minimum|highest|lowest)\b/i;

export function answerTypeOf(question: string): AnswerType {
  const q = question.trim().toLowerCase();
  if (/^(?:who|whom|whose)\b/.test(q) || /\bwhich (?:person|engineer|people|manager|lead|director)\b/.test(q))
    return "person";
  if (/^when\b|\bwhat (?:date|day|year|time)\b|\bon what date\b|\bin what year\b/.test(q)) return "date";
  if (/\bhow long\b|\bduration\b|\bhow many (?:seconds|minutes|hours|days|weeks|months|years)\b/.test(q))
    return "duration";
  if (
    /\bhow (?:many|much)\b|\bwhat (?:percentage|share|number|amount)\b|\bwhat is the (?:limit|timeout|size|maximum|minimum)\b/.test(
      q,
    )
  )
    return "number";
  if (
    new RegExp(`^${QUESTION_START}\\b`).test(q) &&
    /^(?:is|are|was|were|does|do|did|can|could|has|have|had|will)\b/.test(q)
  )
    return "yesno";
  if (
    /^(?:what|which)\b[^?]*\b(?:limit|timeout|size|fee|price|cost|amount|percentage|share|number|minimum|maximum|window|latency|target|threshold|slo|rate)s?\b/.test(
      q,
    )
  )
    return "number";
  if (/^which\b/.test(q)) return "entity";
  return "fact";
}

function contentTerms(text: string): string[] {
  return queryTerms(text)
    .filter((t) => !GENERIC.has(t))
    .map(fold);
}

function makePart(text: string, context = ""): QuestionPart {
  const clean = text.trim().replace(/[?.!]+$/, "");
  const query = context ? `${clean} ${context}` : clean;
  // A relative pronoun after the first word ("the team that owns X") chains lookups: X first, the head last.
  // "Jagdish Mali ... is father to which actress?" asks in place: there "which" is the question word. A
  // question that starts with its question word, or a "that"/"whose" clause, chains.
  const leads = new RegExp(`^${QUESTION_START}\\b`, "i").test(clean);
  const relative = [...` ${clean} `.matchAll(RELATIVE)].find(
    (m) => m.index > 1 && (leads || /^\s(?:that|whose)\s$/i.test(m[0])),
  );
  const chain = relative !== undefined;
  const head = relative ? contentTerms(clean.slice(0, relative.index)) : [];
  return {
    text: clean,
    query,
    terms: [...new Set(contentTerms(query))],
    entities: extractEntities(query)
      .filter((e) => e.type !== "name" || e.text.length > 2)
      .map((e) => e.text),
    head,
    chain,
    answerType: answerTypeOf(clean),
    aggregation: AGGREGATION.test(clean),
  };
}

const MORE = /\b(?:more|most|longer|longest|larger|largest|bigger|higher|highest|greater|later|heavier|faster)\b/i;
const LESS = /\b(?:fewer|less|least|shorter|shortest|smaller|smallest|lower|lowest|earlier|lighter|slower)\b/i;

/** "Which lasted longer, A or B?" and "Are A and B both C?" become one part per alternative. */
function comparisonParts(question: string): QuestionPart[] | undefined {
  const q = question.trim().replace(/[?.!]+$/, "");
  const both =
    /^(?:are|were|is|was|do|did|does|have|has)\s+(.+?)\s+and\s+(.+?)\s+(both|the same|of the same|from the same|each)\b\s*(.*)$/i.exec(
      q,
    );
  if (both) {
    const [, a, b, , attr] = both;
    return [makePart(`${a} ${attr}`), makePart(`${b} ${attr}`)];
  }
  const alt = /^(.*?),\s*([^,]+?)\s+or\s+([^,]+?)(?:,\s*(.*))?$/i.exec(q);
  if (alt) {
    const [, attr, a, b, rest] = alt;
    const attribute = `${attr} ${rest ?? ""}`.trim();
    const comparative = MORE.test(attribute) ? "max" : LESS.test(attribute) ? "min" : undefined;
    const side = (x: string): QuestionPart => {
      const part = makePart(`${attribute} ${x}`);
      // A quantitative comparison wants a number from each side.
      return comparative
        ? { ...part, alternative: x.trim(), comparative, answerType: "number" }
        : { ...part, alternative: x.trim() };
    };
    return [side(a!), side(b!)];
  }
  return undefined;
}

/**
 * Splits a question into the lookups it needs: comparisons into one part per alternative, compound
 * questions ("X, who maintains it, and Y?") at clause boundaries that start a new question, with
 * pronouns in later parts resolved against the first part's entities (or its terms).
 */
export function decompose(question: string): QuestionPart[] {
  const comparison = comparisonParts(question);
  if (comparison) return comparison;
  const clauses = question
    .split(SPLIT)
    .map((c) => c.trim())
    .filter((c) => queryTerms(c).length > 0);
  if (clauses.length <= 1) return [makePart(question)];
  const first = makePart(clauses[0]!);
  const parts = [first];
  for (const clause of clauses.slice(1)) {
    const context = PRONOUN.test(clause) ? first.entities.join(" ") || first.text : "";
    parts.push(makePart(clause, context));
  }
  return parts;
}

/**
 * The words naming what a question asks for: "What weekly stipend does ..." -> ["weekly", "stipend"];
 * "How many engineers are ..." -> ["engineers"]. Empty when the question has no such phrase.
 */
export function askedFor(question: string): string[] {
  const m =
    /^(?:what|which|how many|how much)\s+((?:[\p{L}\d-]+\s+){1,4}?)(?:does|do|did|is|are|was|were|can|could|will|would|has|have|had|should|must)\b/iu.exec(
      question.trim(),
    );
  return m ? queryTerms(m[1]!).filter((t) => !GENERIC.has(t) && t.length > 2) : [];
}
