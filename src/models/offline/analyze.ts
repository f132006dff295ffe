import { extractEntities } from "../../text/entities.js";
import { fold } from "../../text/overlap.js";
import { cjkBigrams, isCjk, queryTerms } from "../../text/tokenize.js";
import { BETWEEN, COMPARE, EARLIER, LATER, SAME, SIDE_OPENERS } from "./compare-cues.js";
import { keyLike } from "./key-link.js";
import { askedLineItem, searchNameFor } from "./line-items.js";
import { participleClause } from "./participle.js";
import {
  AGGREGATION,
  type AnswerKindCues,
  type CueTable,
  cueLangs,
  DATE,
  DEFINITE,
  DURATION,
  FILLER,
  findCues,
  HEDGES,
  hasCue,
  JOINERS,
  type Lang,
  LESS,
  LINK_FILLER,
  LINKS,
  languageOf,
  leadsWith,
  MEASURE,
  MORE,
  NUMBER,
  PERSON,
  PRESENT_TIME,
  PRONOUNS,
  WH,
  WHICH,
  withoutCues,
  YESNO,
} from "./question-cues.js";
import { referredKind } from "./referent.js";
import type { NameSettings } from "./settings.js";

export type AnswerType = "person" | "date" | "number" | "duration" | "yesno" | "place" | "entity" | "fact";

/** One lookup a question needs. */
export interface QuestionPart {
  text: string;
  /** What to search for. */
  query: string;
  /** Content terms (folded) the evidence must cover. */
  terms: string[];
  /** Entity strings the evidence must mention. */
  entities: string[];
  /** For a chained question ("who chairs the board that approves X"): terms of the head clause, answered last. */
  head: string[];
  chain: boolean;
  answerType: AnswerType;
  aggregation: boolean;
  /** For one side of a comparison: the alternative this part is about, and the comparative asked. */
  alternative?: string;
  comparative?: "max" | "min";
  /**
   * For one side of a yes/no comparison ("Are A and B both X?", "... in the same X?"): the attribute each
   * side must have, and for "the same X" the folded words of X (the value the sides must share).
   */
  shared?: { attribute: string; same: string[] };
  /**
   * For a later clause that points back by kind ("and what is that depot's phone number"): the kind's folded
   * words. The clause may ask about the first part's answer, not its names (referent.ts).
   */
  refersTo?: string[];
  /**
   * The one statement line item the part asks for (line-items.ts; with `AnalyzeOptions.lineItems`), and the
   * folded words the question names it by: a passage naming the item under any of its names covers them.
   */
  lineItem?: { item: number; terms: string[] };
  /** For such a clause once resolved: the thing it asks about (the first part's answer), also in `entities`. */
  referent?: string;
}

/** Han characters that are grammar, not content, in Chinese ("的", "是", "吗"). */
const ZH_FUNCTION = /[的了是在和吗呢么吧把被给对从向于与及或也都就还]/u;
const HIRAGANA = /\p{Script=Hiragana}/u;
/** An English relative clause ("the team that owns X"): the head is answered last. */
const RELATIVE = /\s(?:that|which|whose|who|whom|where)\s/gi;

/** An English possessive ("Corey Taylor's city"): a link like "of". */
const POSSESSIVE = /[\p{L}\p{N}]['’]s(?=[\s,])/gu;
/** Links a question needs before it reads as a chain: one describes a thing, two describe it by another thing. */
const CHAIN_LINKS = 2;

/**
 * Where a question ties an attribute to a thing or describes a thing ("the capital of", "X's", "in which",
 * "von", "的", "の"): offsets of each link, in order, not counting the question's first word ("Where is ...")
 * nor a link after a word that only says what kind of thing is asked ("what kind of").
 */
export function linkOffsets(text: string, lang: Lang = languageOf(text)): number[] {
  const filler = new Set(findCues(text, LINK_FILLER, [lang]).map((h) => h.end));
  const firstWord = text.search(/\S/);
  const out: number[] = [];
  let end = -1;
  for (const h of findCues(text, LINKS, [lang])) {
    if (h.start < end || h.start === firstWord) continue;
    end = h.end;
    const before = text.slice(0, h.start).trimEnd().length;
    if (filler.has(before)) continue;
    out.push(h.start);
  }
  if (lang === "en") for (const m of text.matchAll(POSSESSIVE)) out.push(m.index + 1);
  return out.sort((a, b) => a - b);
}

/**
 * A chain told without a relative pronoun: "the home city of the founder of X", "X's city of
 * birth's region", "Geburtsort des Autors von X", "X的作者的国籍", "Xの作者の出身国". The head is what is
 * asked of the last thing found: the words before the first link that are not the question's own names
 * (before the second link when the first leaves none).
 */
export function linkChain(text: string, lang: Lang, entities: readonly string[]): string[] | undefined {
  const links = linkOffsets(text, lang);
  if (links.length < CHAIN_LINKS) return undefined;
  const names = new Set(contentTerms(entities.join(" "), lang));
  for (const at of links.slice(0, 2)) {
    const head = contentTerms(text.slice(0, at), lang).filter((t) => !names.has(t));
    if (head.length > 0) return [...new Set(head)];
  }
  return [];
}

/** Cues that only say how a question is asked: blanked before its content terms are read. */
const NOT_CONTENT: CueTable[] = [PRESENT_TIME, FILLER];
/** Question-word cues of Chinese and Japanese: blanked too (Latin question words are stop words already). */
const CJK_QUESTION: CueTable[] = [WH, YESNO.any, PERSON.any, DATE.any, DURATION.any, NUMBER.any, WHICH.any];

function kindCue(q: string, cues: AnswerKindCues, lang: Lang): boolean {
  return leadsWith(q, cues.lead, lang) || hasCue(q, cues.any, cueLangs(lang));
}

const WHAT_WHICH: CueTable = {
  en: ["what", "which"],
  de: ["was", "welche", "welcher", "welches", "welchen"],
  zh: [],
  ja: [],
};

/** Yes/no: a Latin question led by an auxiliary; a Chinese or Japanese one marked so, with no question word. */
function isYesNo(q: string, lang: Lang): boolean {
  if (lang === "en" || lang === "de") return leadsWith(q, YESNO.lead, lang);
  return hasCue(q, YESNO.any, [lang]) && !hasCue(q, WH, [lang]);
}

export function answerTypeOf(question: string): AnswerType {
  const q = question.trim();
  const lang = languageOf(q);
  if (kindCue(q, PERSON, lang)) return "person";
  if (kindCue(q, DATE, lang)) return "date";
  if (kindCue(q, DURATION, lang)) return "duration";
  if (kindCue(q, NUMBER, lang)) return "number";
  if (isYesNo(q, lang)) return "yesno";
  const asksWhat = lang === "zh" || lang === "ja" ? hasCue(q, WH, [lang]) : leadsWith(q, WHAT_WHICH, lang);
  if (asksWhat && hasCue(q, MEASURE, cueLangs(lang))) return "number";
  if (kindCue(q, WHICH, lang)) return "entity";
  return "fact";
}

/** A CJK bigram that spans grammar (a Japanese particle, a Chinese function character) names nothing. */
function isContentTerm(term: string, lang: Lang): boolean {
  if (!isCjk(term)) return true;
  if (lang === "ja" || HIRAGANA.test(term)) return !HIRAGANA.test(term);
  return !(term.length <= 2 && ZH_FUNCTION.test(term));
}

const CODE_IN_PARENS = /[（(]\s*[A-Za-z0-9][A-Za-z0-9 ._-]{0,30}?\s*[)）]/gu;
const CJK_NAME_CHAR = /[\p{Script=Han}\p{Script=Katakana}\u30fc]/u;

/**
 * The terms of CJK names a text follows with a Latin code in parentheses ("名古屋（NGO）"): the name, its
 * character pairs. The code says what the name is in any language, so a passage need not spell the name.
 * Linear: each name is read back once from the parenthesis that follows it.
 */
export function namedByCode(text: string): Set<string> {
  const out = new Set<string>();
  let floor = 0;
  for (const m of text.matchAll(CODE_IN_PARENS)) {
    let start = m.index;
    while (start > floor && CJK_NAME_CHAR.test(text[start - 1]!)) start--;
    floor = m.index + m[0].length;
    if (start === m.index) continue;
    const name = text.slice(start, m.index);
    out.add(name);
    for (const pair of cjkBigrams(name)) out.add(pair);
  }
  return out;
}

/** The folded terms the evidence must cover: no question words, no filler, no grammar bigrams. */
export function contentTerms(text: string, lang: Lang = languageOf(text)): string[] {
  const langs = cueLangs(lang);
  let t = text;
  for (const table of NOT_CONTENT) t = withoutCues(t, table, langs);
  if (lang === "zh" || lang === "ja") for (const table of CJK_QUESTION) t = withoutCues(t, table, [lang]);
  // Blanking reads whole words; a word with a clitic ("long's") is one word until the tokenizer splits it.
  // A CJK name the question itself spells by a code ("名古屋（NGO）") is found by the code.
  const spelled = namedByCode(t);
  return queryTerms(t)
    .filter((term) => !spelled.has(term))
    .filter((term) => isContentTerm(term, lang) && (isCjk(term) || !hasCue(term, FILLER, langs)))
    .map(fold);
}

/** How the analysis reads a question (from the offline settings' `hop`). */
export interface AnalyzeOptions {
  /** A thing described by a participle clause is a link of a chain (participle.ts). */
  participleChains?: boolean;
  /** "the ticket" in a later clause refers back to the ticket an earlier one names (off only when `false`). */
  definiteRefs?: boolean;
  /** How the question's names are read (settings.names; `entitiesOf`). */
  names?: NameSettings;
  /**
   * A part asking for one line item of a financial statement knows it (`QuestionPart.lineItem`), and its
   * search also says the item's full name where the question gives only a one-word name ("R&D").
   */
  lineItems?: boolean;
}

function makePart(text: string, context = "", options: AnalyzeOptions = {}): QuestionPart {
  const clean = trimEnd(text.trim());
  const lang = languageOf(clean);
  const query = context ? `${clean} ${context}` : clean;
  // A relative pronoun after the first word ("the team that owns X") chains lookups: X first, the head last.
  // "Jagdish Mali ... is father to which actress?" asks in place: there "which" is the question word. A
  // question that starts with its question word, or a "that"/"whose" clause, chains.
  const leads = leadsWith(clean, WH, "en") || leadsWith(clean, YESNO.lead, "en");
  const relative =
    lang === "en"
      ? [...` ${clean} `.matchAll(RELATIVE)].find((m) => m.index > 1 && (leads || /^\s(?:that|whose)\s$/i.test(m[0])))
      : undefined;
  const entities = entitiesOf(query, lang, options.names);
  const aggregation = hasCue(clean, AGGREGATION, cueLangs(lang));
  // A thing described by a participle ("a label started by X", "der von X gegründete Verlag") is a link
  // like a relative clause. A count over records ("tickets created in May") is one lookup, not a chain.
  const described =
    relative || aggregation || options.participleChains === false ? undefined : participleClause(clean, lang);
  const linked = relative || described ? undefined : linkChain(clean, lang, entities);
  const chain = relative !== undefined || described !== undefined || linked !== undefined;
  const head = relative
    ? contentTerms(clean.slice(0, relative.index), lang)
    : described
      ? participleHead(clean, described, lang, entities, leads || leadsWith(clean, WH, lang))
      : (linked ?? []);
  const item = options.lineItems ? askedLineItem(clean) : undefined;
  const fuller = item ? searchNameFor(item) : undefined;
  return {
    text: clean,
    query: fuller ? `${query} ${fuller}` : query,
    terms: [...new Set(contentTerms(query, lang))],
    entities,
    head,
    chain,
    answerType: answerTypeOf(clean),
    aggregation,
    ...(item ? { lineItem: { item: item.item, terms: [...new Set(contentTerms(item.names.join(" "), lang))] } } : {}),
  };
}

/**
 * What is asked last of a chain told by a participle clause. A question led by its question word asks it
 * before the clause ("Which film was directed by the man born in X": the film); one that asks at its end
 * asks it of the described thing ("X plays for a club started by whom": who started it). The question's
 * own names are where the chain starts, not what it asks.
 */
function participleHead(
  text: string,
  clause: { start: number; at: number },
  lang: Lang,
  entities: readonly string[],
  leads: boolean,
): string[] {
  const names = new Set(contentTerms(entities.join(" "), lang));
  const span = leads ? text.slice(0, clause.start) : text.slice(clause.at);
  return [...new Set(contentTerms(span, lang).filter((t) => !names.has(t)))];
}

/**
 * Entity strings a part must find. German capitalises every noun, so there a capitalised phrase is not a
 * name ("Zustellung Zeit"): only identifiers, paths, codes and quoted strings are kept; the words stay terms.
 */
export function entitiesOf(text: string, lang: Lang = languageOf(text), names: NameSettings = NO_NAME_FORMS): string[] {
  return extractEntities(text)
    .filter((e) => (e.type === "name" ? lang !== "de" && e.text.length > 2 : true))
    .flatMap((e) => (e.type === "name" ? codeRun(e.text) : [e.text]))
    .flatMap((e) => nameAsWritten(e, names));
}

/**
 * The names of `<attribute> <side>` when a name runs across the seam between them: that name gives way to its
 * two pieces (each kept only if it is a name on its own); other names stay as the whole text reads them.
 */
export function seamNames(
  attribute: string,
  side: string,
  entities: readonly string[],
  lang: Lang,
  names: NameSettings,
): string[] {
  const seam = attribute.length + 1;
  const crossing = extractEntities(`${attribute} ${side}`).filter(
    (e) => e.index < attribute.length && e.index + e.text.length > seam,
  );
  if (crossing.length === 0) return [...entities];
  const crossed = new Set(crossing.map((e) => e.text));
  const pieces = crossing.flatMap((e) => {
    const cut = seam - e.index;
    return [e.text.slice(0, cut).trim(), e.text.slice(cut).trim()].flatMap((piece) =>
      piece.length > 2 ? nameAsWritten(piece, names) : [],
    );
  });
  const kept = entities.filter((e) => ![...crossed].some((c) => c.includes(e) || e.includes(c)));
  return lang === "de" ? [...entities] : [...new Set([...kept, ...pieces])];
}

const NO_NAME_FORMS: NameSettings = { possessive: false, periods: false, seams: false };

/** A reporting period written as a code: "FY2023", "FY23", "FY'23", "Q3", "H1", "CY2022" (each word of a name). */
const PERIOD_CODE = /^(?:FY|CY|Q[1-4]|H[12])(?:['’]?\d{2}|\d{4})?$/i;

/**
 * A name as the sources write it: without the apostrophe of a plural possessive ("Harlow Brothers'" is
 * written "Harlow Brothers"), and none when it is only a reporting period ("FY2023", "Q3 FY23"): the period
 * is a constraint the evidence states in its own way ("Year ended March 31, 2023"; constraints.ts reads the
 * year), not a name a passage must spell out.
 */
export function nameAsWritten(name: string, names: NameSettings): string[] {
  let out = name;
  if (names.possessive && /s['’]$/u.test(out)) out = out.slice(0, -1);
  if (names.periods && out.split(/\s+/).every((w) => PERIOD_CODE.test(w))) return [];
  return out.length > 0 ? [out] : [];
}

/**
 * A name made of codes side by side ("ZQ7 ACME" in "the ZQ7 ACME outage") is several things named at once,
 * each in its own place in the evidence (a severity and a system), rarely written together: each code is a
 * name of its own. Other names stay whole.
 */
export function codeRun(name: string): string[] {
  const parts = name.split(/\s+/).filter(Boolean);
  return parts.length > 1 && parts.every(keyLike) ? parts : [name];
}

/** The text without trailing question marks and full stops (a loop: no regex backtracking on long runs). */
function trimEnd(text: string): string {
  let end = text.length;
  while (end > 0 && "?.!？。！".includes(text[end - 1]!)) end--;
  return text.slice(0, end);
}

const OR: CueTable = { en: ["or"], de: ["oder"], zh: ["还是", "或者"], ja: ["または", "それとも"] };
const BOTH: CueTable = {
  en: ["both", "the same", "of the same", "from the same", "each"],
  de: ["beide", "beides", "gleich", "gleichen", "dieselbe", "denselben", "dasselbe"],
  zh: [],
  ja: [],
};
/** Words between two compared names: "A and B", "A und B", "A和B", "AとB". */
const AND: CueTable = { en: ["and"], de: ["und"], zh: ["和", "与", "跟"], ja: ["と"] };
/** Which of two (Chinese, Japanese): "哪个", "どちら". */
const WHICH_OF_TWO: CueTable = { en: [], de: [], zh: ["哪个", "哪一个", "谁"], ja: ["どちら", "どっち"] };

/**
 * A side of a comparison asks one attribute of its own alternative: the attribute's participle ("films
 * directed by whom") describes what is compared, not a thing to find first.
 */
const SIDE: AnalyzeOptions = { participleChains: false };

/** Longest question the comparison patterns read (they split on cue positions; the bound keeps them cheap). */
const MAX_COMPARISON = 400;

/** "Which lasted longer, A or B?" and "Are A and B both C?" become one part per alternative. */
function comparisonParts(question: string, names?: NameSettings): QuestionPart[] | undefined {
  const q = trimEnd(question.trim());
  if (q.length > MAX_COMPARISON) return undefined;
  const lang = languageOf(q);
  const langs = cueLangs(lang);
  const sided = (attribute: string, a: string, b: string): QuestionPart[] => {
    const more = hasCue(attribute, MORE, langs);
    const less = hasCue(attribute, LESS, langs);
    // "Who is older", "which was founded first": a comparison of dates (the earlier or the later wins). A cue
    // that is also a quantity's ("earlier" cut-off time) stays a number comparison.
    const dated =
      more || less
        ? undefined
        : hasCue(attribute, EARLIER, langs)
          ? "min"
          : hasCue(attribute, LATER, langs)
            ? "max"
            : undefined;
    const comparative = dated ?? (more ? "max" : less ? "min" : undefined);
    const side = (x: string): QuestionPart => {
      const whole = makePart(`${attribute} ${x}`, "", { ...SIDE, names });
      // A name running across the seam ("... is Danish, Ole Brandt or ..." read as "Danish Ole Brandt") is
      // the attribute's word and the side's name, each a name of its own; as for a shared attribute below.
      const part = names?.seams ? { ...whole, entities: seamNames(attribute, x, whole.entities, lang, names) } : whole;
      // A quantitative comparison wants a number from each side; a comparison of dates, a date.
      return comparative
        ? { ...part, alternative: x.trim(), comparative, answerType: dated ? "date" : "number" }
        : { ...part, alternative: x.trim() };
    };
    return [side(a), side(b)];
  };
  if (lang === "zh" || lang === "ja") {
    // "A和B，哪个更…" / "AとBでは、どちらが…": the names before the first separator, the attribute after.
    const which = findCues(q, WHICH_OF_TWO, [lang])[0] ?? findCues(q, COMPARE, [lang])[0];
    const and = findCues(q, AND, [lang]).find((h) => which && h.start > 0 && h.end < which.start);
    if (!which || !and) return undefined;
    const stop = /[，、,：:的の]|では|で|を/u.exec(q.slice(and.end));
    const bEnd = stop ? and.end + stop.index : which.start;
    const a = q.slice(0, and.start).trim();
    const b = q.slice(and.end, bEnd).trim();
    if (!a || !b || b.length > 40 || a.length > 40) return undefined;
    return sided(q.slice(bEnd), a, b);
  }
  if (leadsWith(q, YESNO.lead, lang)) {
    const shared = sharedParts(q, lang, names);
    if (shared) return shared;
  }
  // "<attribute>, A or B[, rest]": the last comma before "or" starts the alternatives.
  const or = findCues(q, OR, langs).at(-1);
  if (!or) {
    const paired = pairedSides(q, lang);
    return paired ? sided(paired.attribute, paired.a, paired.b) : undefined;
  }
  const comma = q.lastIndexOf(",", or.start);
  if (comma < 0) {
    // "Which shop opened first Alder Books or Birch Tools?": with no comma, the names around "or" are the sides.
    const named = namesAround(q, or);
    return named ? sided(named.attribute, named.a, named.b) : undefined;
  }
  const after = q.indexOf(",", or.end);
  const a = q.slice(comma + 1, or.start).trim();
  const b = q.slice(or.end, after < 0 ? q.length : after).trim();
  if (!a || !b || q.slice(comma + 1, or.start).includes(",")) return undefined;
  const attribute = `${q.slice(0, comma)} ${after < 0 ? "" : q.slice(after + 1)}`.trim();
  return sided(attribute, a, b);
}

/** "Which of them", "who", "welche": a question asking for one of two named things. */
const WHICH_ONE: CueTable = { en: ["which", "who"], de: ["welche", "welcher", "welches", "wer"], zh: [], ja: [] };

/** Most words one side of "compare A and B" may have. */
const MAX_SIDE_WORDS = 6;
const ARTICLE = /^(?:the|a|an|der|die|das|den|dem)\s+/i;

/** A side written as a bare variant of the other ("v2" after "plan v1", "B" after "level A"): a code or a letter. */
const isVariant = (side: string) => side.split(/\s+/).every((w) => /\d/.test(w) || /^\p{Lu}{1,2}$/u.test(w));

/**
 * "Compare the fees in plan v1 and v2", "How do the quotas on level A and level B compare", "Between A and B,
 * which …": the two sides joined by "and", where a comparison cue ("compare", "differ", "vergleichen") or a
 * leading "between" marks the question as one. The left side starts after "between", the comparison cue, a
 * preposition or a comma; the right side ends at a comma or a cue. Sides written alike are aligned: a bare
 * variant on the right takes the left side's leading words ("SLA v4"), and the right side's words past the
 * left side's length belong to the attribute ("tier B carriers" -> "tier B"). Undefined for anything else.
 */
export function pairedSides(q: string, lang: Lang): { a: string; b: string; attribute: string } | undefined {
  if (lang !== "en" && lang !== "de") return undefined;
  const compare = findCues(q, COMPARE, [lang]);
  const between = findCues(q, BETWEEN, [lang])[0];
  // "Between A and B" compares only when the question asks which one, or how they rank ("the relationship
  // between A and B" asks about both at once).
  const asksWhich =
    leadsWith(q, WHICH.lead, lang) ||
    hasCue(q, WHICH_ONE, [lang]) ||
    hasCue(q, MORE, [lang]) ||
    hasCue(q, LESS, [lang]);
  if (compare.length === 0 && !(between && asksWhich)) return undefined;
  const ands = findCues(q, AND, [lang]);
  const and = between ? ands.find((h) => h.start > between.end) : ands.length === 1 ? ands[0] : undefined;
  if (!and) return undefined;
  // Left edge: the nearest "between", comparison cue, preposition or comma before "and".
  const edges = [
    ...(between && between.end <= and.start ? [between.end] : []),
    ...compare.filter((h) => h.end <= and.start).map((h) => h.end),
    ...(between ? [] : findCues(q.slice(0, and.start), SIDE_OPENERS, [lang]).map((h) => h.end)),
    q.lastIndexOf(",", and.start) + 1,
    latinWordEnd(q),
  ];
  const from = Math.max(...edges);
  const cueAfter = compare.find((h) => h.start >= and.end)?.start ?? q.length;
  const comma = q.indexOf(",", and.end);
  const to = Math.min(cueAfter, comma < 0 ? q.length : comma);
  // A second clause after the sides (", and what are their limits") is a compound question: left to clauses().
  if (q.indexOf(",", to + 1) >= 0) return undefined;
  let a = q.slice(from, and.start).trim().replace(ARTICLE, "");
  const right = q.slice(and.end, to).trim().replace(ARTICLE, "");
  const aWords = a.split(/\s+/).filter(Boolean);
  let bWords = right.split(/\s+/).filter(Boolean);
  let rest = "";
  if (aWords.length >= 2 && bWords.length > aWords.length) {
    rest = bWords.slice(aWords.length).join(" ");
    bWords = bWords.slice(0, aWords.length);
  } else if (bWords.length < aWords.length && isVariant(bWords.join(" "))) {
    bWords = [...aWords.slice(0, aWords.length - bWords.length), ...bWords];
  }
  const b = bWords.join(" ");
  if (!a || !b || aWords.length > MAX_SIDE_WORDS || bWords.length > MAX_SIDE_WORDS) return undefined;
  if (fold(a.toLowerCase()) === fold(b.toLowerCase())) return undefined;
  a = a.trim();
  // The attribute: the question without the sides and the cues that only mark the comparison.
  const blank = (text: string, hits: { start: number; end: number }[]) =>
    hits.reduceRight((t, h) => `${t.slice(0, h.start)}${" ".repeat(h.end - h.start)}${t.slice(h.end)}`, text);
  const outside = blank(
    q,
    [...compare, ...(between ? [between] : []), { start: from, end: to }].sort((x, y) => x.start - y.start),
  );
  const attribute = `${outside} ${rest}`
    .replace(/\s+/g, " ")
    .replace(/\s,/g, ",")
    .replace(/^[\s,;:]+/, "")
    .trim();
  return { a, b, attribute };
}

/** The name a text starts with ("Ada Lovelace-Byron fellows of" -> "Ada Lovelace-Byron"), and the rest; the whole text when none. */
function leadingName(text: string): { name: string; rest: string } {
  const t = text.trim().replace(/^(?:the|die|der|das)\s+/i, "");
  const first = extractEntities(t)[0];
  // A one-word name at the start is not an entity to the extractor (any sentence starts with a capital).
  const name = first?.index === 0 ? first.text : /^\p{Lu}[\p{L}\p{N}'’.-]*/u.exec(t)?.[0];
  if (!name) return { name: t, rest: "" };
  return { name, rest: t.slice(name.length).trim() };
}

/**
 * "Are A and B both X?", "Are both magazines, A and B, X?", "Are A and B in the same X?": one part per side,
 * each with the attribute it must have (and, for "the same X", the words of X).
 */
function sharedParts(q: string, lang: Lang, names?: NameSettings): QuestionPart[] | undefined {
  const langs = cueLangs(lang);
  const cue = findCues(q, BOTH, langs)[0];
  if (!cue) return undefined;
  const first = latinWordEnd(q);
  let a: string;
  let b: string;
  let attribute: string;
  const before = findCues(q.slice(0, cue.start), AND, langs).at(-1);
  if (before && first < before.start) {
    // "Are A and B both X": the sides before the cue; a "same" cue is part of the attribute.
    a = q.slice(first, before.start).trim();
    const side = leadingName(q.slice(before.end, cue.start));
    b = side.name;
    const keep = hasCue(cue.cue, SAME, langs) ? q.slice(cue.start) : q.slice(cue.end);
    attribute = `${side.rest} ${keep}`.trim();
  } else if (q.slice(first, cue.start).trim() === "") {
    // "Are both [kind,] A and B X": the sides after the cue, the last comma before A ending the kind.
    const after = findCues(q.slice(cue.end), AND, langs)[0];
    if (!after) return undefined;
    const left = q.slice(cue.end, cue.end + after.start);
    a = left.slice(left.lastIndexOf(",") + 1).trim();
    const right = q.slice(cue.end + after.end);
    const comma = right.indexOf(",");
    const side = comma >= 0 ? { name: right.slice(0, comma).trim(), rest: right.slice(comma + 1) } : leadingName(right);
    b = side.name;
    attribute = side.rest.trim();
  } else return undefined;
  a = leadingName(a).name || a;
  if (!a || !b || !attribute || a.length > 80 || b.length > 80) return undefined;
  const same = findCues(attribute, SAME, langs)[0];
  const sameWords = same ? contentTerms(attribute.slice(same.end), lang).slice(0, 2) : [];
  return [a, b].map((x) => ({
    ...makePart(`${x} ${attribute}`, "", { ...SIDE, names }),
    // The side's own names, not a run of capitals across the seam ("Viewpoint British").
    entities: [...new Set([...entitiesOf(x, lang, names), ...entitiesOf(attribute, lang, names)])],
    alternative: x,
    shared: { attribute, same: sameWords },
  }));
}

/** The two names on either side of "or" in a comparison without a comma, and the attribute (the rest). */
function namesAround(
  q: string,
  or: { start: number; end: number },
): { a: string; b: string; attribute: string } | undefined {
  const left = extractEntities(q.slice(0, or.start)).filter(
    (e) => e.type === "name" && q.slice(e.index + e.text.length, or.start).trim() === "",
  );
  const a = left.at(-1);
  const b = extractEntities(q.slice(or.end)).find((e) => e.type === "name");
  if (!a || !b || a.index < latinWordEnd(q)) return undefined;
  // A leading article belongs to the name as written ("The Alder Books").
  const article = /\b(?:the|der|die|das)\s+$/i.exec(q.slice(Math.max(0, a.index - 5), a.index));
  const aStart = article ? a.index - article[0].length : a.index;
  const rest = q.slice(or.end);
  const bArticle = /\b(?:the|der|die|das)\s+$/i.exec(rest.slice(Math.max(0, b.index - 5), b.index));
  const bStart = bArticle ? b.index - bArticle[0].length : b.index;
  const attribute = `${q.slice(0, aStart)} ${rest.slice(0, bStart)} ${rest.slice(b.index + b.text.length)}`.trim();
  return { a: q.slice(aStart, a.index + a.text.length), b: rest.slice(bStart, b.index + b.text.length), attribute };
}

/** Where the first word of a text ends. */
function latinWordEnd(text: string): number {
  const m = /^\s*\S+/.exec(text);
  return m ? m[0].length : 0;
}

const SENTENCE_END = "?？。！!";
const CLAUSE_COMMA = ",，、";

/**
 * Where a new question starts in a compound one: after "; " or a joiner ("and", "und", "还有") before a
 * question word or auxiliary, after a bare comma before a question word (a comma before "have ..." is more
 * often an apposition), and after a question mark or full stop with more text after it.
 */
function clauses(question: string, lang: Lang): string[] {
  const text = question.trim();
  const langs = cueLangs(lang);
  const starts = new Set<number>();
  const cuts: { cut: number; start: number }[] = [];
  const latin = lang === "en" || lang === "de";
  // A question mark or full stop inside the text ends a question when another one follows (a Latin one led
  // by a question word or auxiliary; a Chinese or Japanese sentence), not before appended context words.
  for (let i = 0; i < text.length - 1; i++) {
    if (!SENTENCE_END.includes(text[i]!)) continue;
    const rest = text.slice(i + 1).trim();
    if (rest.length === 0) continue;
    const next = latin ? leadsWith(rest, WH, lang) || leadsWith(rest, YESNO.lead, lang) : isCjk(rest.slice(0, 8));
    if (next) cuts.push({ cut: i, start: i + 1 });
  }
  if (latin) {
    const qStart = new Set([...findCues(text, WH, langs), ...findCues(text, YESNO.lead, langs)].map((h) => h.start));
    const wh = new Set(findCues(text, WH, langs).map((h) => h.start));
    const words = [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)];
    const joiners = new Set(findCues(text, JOINERS, langs).map((h) => h.start));
    const hedges = new Set(findCues(text, HEDGES, langs).map((h) => h.start));
    // After a joiner, a question starts at a question word or auxiliary, or at a hedge before a question word
    // ("and roughly what share ...").
    const asks = (j: number) =>
      j < words.length &&
      (qStart.has(words[j]!.index) ||
        (hedges.has(words[j]!.index) && j + 1 < words.length && wh.has(words[j + 1]!.index)));
    for (let i = 1; i < words.length; i++) {
      const at = words[i]!.index;
      const gap = text.slice(words[i - 1]!.index + words[i - 1]![0].length, at);
      if (gap.includes(";") && qStart.has(at)) cuts.push({ cut: at, start: at });
      else if (joiners.has(at) && asks(i + 1) && !starts.has(at)) {
        const cut = gap.includes(",") ? at - gap.length + gap.indexOf(",") : at;
        cuts.push({ cut, start: words[i + 1]!.index });
        starts.add(words[i + 1]!.index);
      } else if (gap.includes(",") && wh.has(at) && !starts.has(at)) cuts.push({ cut: at, start: at });
    }
  } else {
    for (const h of findCues(text, JOINERS, [lang])) {
      if (h.start > 0 && CLAUSE_COMMA.includes(text[h.start - 1]!)) cuts.push({ cut: h.start - 1, start: h.end });
    }
  }
  cuts.sort((a, b) => a.cut - b.cut);
  const out: string[] = [];
  let from = 0;
  for (const { cut, start } of cuts) {
    if (cut < from) continue;
    out.push(text.slice(from, cut));
    from = start;
  }
  out.push(text.slice(from));
  return out.map((c) => trimEnd(c.trim()).replace(/^[,;，、\s]+|[,;，、\s]+$/gu, "")).filter((c) => c.length > 0);
}

/**
 * Splits a question into the lookups it needs: comparisons into one part per alternative, compound
 * questions ("X, who maintains it, and Y?") at clause boundaries that start a new question, with
 * pronouns in later parts resolved against the first part's entities (or its terms). Chinese and
 * Japanese drop the pronoun altogether, so there a later clause always carries the first one's subject.
 */
export function decompose(question: string, options: AnalyzeOptions = {}): QuestionPart[] {
  const comparison = comparisonParts(question, options.names);
  if (comparison) return comparison;
  const lang = languageOf(question);
  const parts = clauses(question, lang).filter((c) => queryTerms(c).length > 0);
  // A count asked in another clause ("Of the orders placed in May, how many ...") makes the whole a count.
  if (parts.length > 1 && hasCue(question, AGGREGATION, cueLangs(lang)))
    options = { ...options, participleChains: false };
  if (parts.length <= 1) return [makePart(question, "", options)];
  const first = makePart(parts[0]!, "", options);
  const out = [first];
  for (const clause of parts.slice(1)) {
    const refers =
      lang === "zh" ||
      lang === "ja" ||
      hasCue(clause, PRONOUNS, cueLangs(lang)) ||
      (options.definiteRefs !== false && refersToNamed(clause, parts[0]!, lang));
    const context = refers ? first.entities.join(" ") || first.text : "";
    const kind = refers ? referredKind(clause, lang) : [];
    out.push({ ...makePart(clause, context, options), ...(kind.length > 0 ? { refersTo: kind } : {}) });
  }
  return out;
}

/**
 * A later part asked again about `thing` (the first part's answer it points back to) instead of the first
 * part's names: its query and names carry the thing.
 */
export function aboutThing(part: QuestionPart, thing: string, options: AnalyzeOptions = {}): QuestionPart {
  return { ...makePart(part.text, thing, options), refersTo: part.refersTo ?? [], referent: thing };
}

/**
 * Does a later clause point back to a record an earlier clause named by its identifier, with a definite
 * article and the record's kind ("work order WO-17 ..., and when was the order closed?")?
 */
export function refersToNamed(clause: string, earlier: string, lang: Lang): boolean {
  const articles = DEFINITE[lang];
  if (articles.length === 0) return false;
  const kinds: string[] = [];
  for (const e of extractEntities(earlier)) {
    if (e.type !== "identifier") continue;
    const before = /([\p{L}][\p{L}_-]*)[\s:#]*$/u.exec(earlier.slice(Math.max(0, e.index - 40), e.index));
    if (before) kinds.push(before[1]!.toLowerCase());
  }
  if (kinds.length === 0) return false;
  const table: CueTable = {
    en: [],
    de: [],
    zh: [],
    ja: [],
    [lang]: kinds.flatMap((k) => articles.map((a) => `${a} ${k}`)),
  };
  return hasCue(clause, table, [lang]);
}

const ASK_LEAD: CueTable = {
  en: ["what", "which", "how many", "how much"],
  de: ["was", "welche", "welcher", "welches", "welchen", "wie viele", "wie viel", "wieviel", "wieviele"],
  zh: [],
  ja: [],
};

/**
 * The words naming what a question asks for: "What weekly stipend does ..." -> ["weekly", "stipend"];
 * "How many engineers are ..." -> ["engineers"]; "Wie viele Tage haben ..." -> ["tage"]. Empty when the
 * question has no such phrase (or is not in a Latin-script language).
 */
export function askedFor(question: string): string[] {
  const q = question.trim().slice(0, 300);
  const lang = languageOf(q);
  if (lang !== "en" && lang !== "de") return [];
  const lead = findCues(q, ASK_LEAD, [lang])[0];
  if (!lead || q.slice(0, lead.start).trim().length > 0) return [];
  const aux = findCues(q, YESNO.lead, [lang]).find((h) => h.start > lead.end);
  if (!aux) return [];
  const between = q.slice(lead.end, aux.start).trim();
  const count = between.split(/\s+/).filter(Boolean).length;
  if (count < 1 || count > 4) return [];
  return queryTerms(between).filter((t) => !hasCue(t, FILLER, [lang]) && t.length > 2);
}
