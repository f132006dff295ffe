import type { AgentState } from "../../spec/engine.js";
import { type Entity, extractEntities } from "../../text/entities.js";
import { queryTerms } from "../../text/tokenize.js";
import { type CueTable, cueLangs, findCues, type Lang, languageOf } from "./question-cues.js";

const w = (s: string): string[] => s.split("|").filter(Boolean);

/**
 * Words in a follow-up that stand for something named earlier in the conversation, by what they stand
 * for: one thing, several things, a place. Chinese and Japanese drop pronouns more often than not, and
 * their short pronouns hide inside other words (其 in 其他 "other", それ in それぞれ "each"), so only
 * unambiguous forms are listed for them; a follow-up without one is joined to the previous question.
 */
const ONE: CueTable = {
  en: w("it|its|he|she|him|his|her"),
  de: w("es|er|ihn|ihm|sein|seine|seinen|seinem|seiner|dessen"),
  zh: w("它"),
  ja: w("彼女|彼"),
};
const MANY: CueTable = {
  en: w("they|them|their|those|these"),
  de: w("sie|ihnen|deren|ihre|ihren|ihrer"),
  zh: w("它们|他们|她们|这些|那些"),
  ja: w("それら|これら|彼ら"),
};
const PLACE: CueTable = {
  en: w("there"),
  de: w("dort|dorthin|dortige|dortigen|dortiger"),
  zh: w("那里|那儿|该地"),
  ja: w("あそこ"),
};
/** "that team", "diese Schicht", "该团队", "そのチーム": a demonstrative before the noun it points with. */
const DEMONSTRATIVE: CueTable = {
  en: w("that|this|the same"),
  de: w("dieser|diese|dieses|diesen|diesem|jener|jene|jenes|jenen|derselbe|dieselbe|dasselbe"),
  zh: w("该|这个|那个"),
  ja: w("その|この|あの"),
};

/** A follow-up that only adds a twist to the previous question: "And in test mode?", "Und für Seefracht?". */
const ELLIPTIC_LEAD: CueTable = {
  en: w("and|what about|how about|and what about|also|same for|what of|and for"),
  de: w("und|und was ist mit|was ist mit|wie ist es mit|wie sieht es mit|und bei|und für|auch|ebenso"),
  zh: w("那|那么|还有|另外"),
  ja: w("では|じゃあ|それでは|また"),
};

/** Words after "that"/"this" that show it is a pronoun on its own ("who signed that on Monday?"), not a determiner. */
const NOT_A_NOUN =
  /^(?:at|in|on|for|to|of|by|with|now|then|today|currently|right|again|one|is|was|be|been|still|about|from|after|before)$/i;

type Kind = "one" | "many" | "place" | "demonstrative";

interface Reference {
  kind: Kind;
  start: number;
  end: number;
  /** The noun after a demonstrative ("team" in "that team"). */
  noun?: string;
}

/** The first word in a follow-up that refers back, with what kind of thing it stands for. */
function findReference(question: string, langs: readonly Lang[]): Reference | undefined {
  const hits: Reference[] = [];
  const push = (table: CueTable, kind: Kind) => {
    for (const h of findCues(question, table, langs)) hits.push({ kind, start: h.start, end: h.end });
  };
  push(MANY, "many");
  push(PLACE, "place");
  push(ONE, "one");
  for (const h of findCues(question, DEMONSTRATIVE, langs)) {
    const after = question.slice(h.end, h.end + 60);
    if (/^\p{Script=Han}|^\p{Script=Hiragana}/u.test(h.cue)) {
      // Chinese and Japanese: the noun follows without a space ("该团队", "そのチーム").
      const noun = /^[\p{Script=Han}\p{Script=Katakana}ー]+/u.exec(after)?.[0];
      if (noun) hits.push({ kind: "demonstrative", start: h.start, end: h.end + noun.length, noun });
      continue;
    }
    if (h.cue.includes(" ")) continue;
    const next = /^\s+([\p{L}\p{N}][\p{L}\p{N}-]*)/u.exec(after);
    if (next && !NOT_A_NOUN.test(next[1]!)) {
      hits.push({ kind: "demonstrative", start: h.start, end: h.end + next[0].length, noun: next[1] });
    } else if (h.cue === "that" || h.cue === "this") {
      // "that" on its own ("who signed that on Monday?"): one thing.
      hits.push({ kind: "one", start: h.start, end: h.end });
    }
  }
  // Several tables can match at one place ("sie" is also "ihre"'s neighbour): the earliest, longest wins.
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  return hits[0];
}

const QUESTION_WORDS: CueTable = {
  en: w("who|whom|whose|what|when|where|which|why|how|and|but|also"),
  de: w("wer|wem|wen|wessen|was|wann|wo|wohin|woher|welche|welcher|welches|welchen|welchem|warum|wie|und|aber"),
  zh: [],
  ja: [],
};

/** Entities that can be referred back to: identifiers, paths, codes and names, not question words. */
function referable(text: string): Entity[] {
  return extractEntities(text).filter((e) => {
    if (e.type === "quoted" || e.type === "email" || e.type === "ip") return false;
    if (e.type !== "name") return true;
    const first = findCues(e.text, QUESTION_WORDS)[0];
    return !(first && first.start === 0 && first.end === e.text.length);
  });
}

function joinAll(items: string[], lang: Lang): string {
  if (items.length <= 1) return items[0] ?? "";
  const and = lang === "de" ? " und " : lang === "zh" ? "和" : lang === "ja" ? "と" : " and ";
  return `${items.slice(0, -1).join(", ")}${and}${items.at(-1)}`;
}

/** The previous question and the previous reply. */
function lastTurns(history: AgentState["history"]): { user: string; reply: string } {
  const user = [...history].reverse().find((t) => t.role === "user")?.content ?? "";
  const reply = [...history].reverse().find((t) => t.role === "assistant")?.content ?? "";
  return { user, reply };
}

interface Target {
  text: string;
  /** An identifier, a path, a list, or a name found next to the noun: certain enough to stand alone. */
  strong: boolean;
}

/**
 * What a reference most likely points at, or undefined when nothing in the last turn fits (the caller then
 * joins the follow-up to the previous question instead of guessing):
 * - several things: every identifier of the last reply (its list), else of the last question, when there
 *   are at least two (one identifier is not what "they" stands for);
 * - a place: a name in the last question, else in the reply;
 * - a demonstrative with a noun: the name the noun goes with ("the Payouts team"), else an identifier the
 *   reply introduced, else one of the question;
 * - one thing: an identifier of the last question, else of the reply, else a name or code of the question.
 * Identifiers ("INC-7", "/v2/orders") come before codes ("order-router"), which can be plain hyphenated
 * words ("one-line").
 */
function referent(ref: Reference, history: AgentState["history"], lang: Lang): Target | undefined {
  const { user, reply } = lastTurns(history);
  const inUser = referable(user);
  const inReply = referable(reply);
  const ids = (es: Entity[]) => es.filter((e) => e.type === "identifier" || e.type === "path");
  const weak = (es: Entity[]) => es.filter((e) => e.type === "name" || e.type === "code");
  const strong = (e: Entity | undefined): Target | undefined => (e ? { text: e.text, strong: true } : undefined);
  const loose = (e: Entity | undefined): Target | undefined => (e ? { text: e.text, strong: false } : undefined);
  switch (ref.kind) {
    case "many": {
      for (const es of [ids(inReply), ids(inUser)]) {
        const distinct = [...new Set(es.map((e) => e.text))];
        if (distinct.length >= 2) return { text: joinAll(distinct, lang), strong: true };
      }
      // One identifier is not what a plural stands for ("frames" of one endpoint): join instead.
      return undefined;
    }
    case "place":
      return loose(inUser.find((e) => e.type === "name") ?? inReply.find((e) => e.type === "name"));
    case "demonstrative": {
      const named = nameWithNoun(reply, ref.noun ?? "") ?? nameWithNoun(user, ref.noun ?? "");
      if (named) return { text: named, strong: true };
      return strong(ids(inReply)[0] ?? ids(inUser)[0]) ?? loose(weak(inUser)[0]);
    }
    case "one":
      return strong(ids(inUser)[0] ?? ids(inReply)[0]) ?? loose(weak(inUser)[0]);
  }
}

/** "the Payouts team" or "team Payouts" in a text: the capitalised name next to the noun. */
function nameWithNoun(text: string, noun: string): string | undefined {
  if (!noun || !/^[\p{L}\p{N}-]+$/u.test(noun)) return undefined;
  const lower = noun.toLowerCase();
  for (const e of referable(text)) {
    if (e.type !== "name") continue;
    const after = text.slice(e.index + e.text.length, e.index + e.text.length + noun.length + 2);
    const before = text.slice(Math.max(0, e.index - noun.length - 2), e.index);
    if (after.trimStart().toLowerCase().startsWith(lower) || before.trimEnd().toLowerCase().endsWith(lower)) {
      return e.text;
    }
  }
  return undefined;
}

function replacement(ref: Reference, target: string, lang: Lang): string {
  if (ref.kind === "demonstrative" && ref.noun) return `${target} ${ref.noun}`;
  // "there" / "dort" become "in X" (the preposition is the same word in English and German); CJK keeps the name.
  if (ref.kind === "place") return lang === "en" || lang === "de" ? `in ${target}` : target;
  return target;
}

/**
 * Rewrites a follow-up into a question that stands alone. A word that refers back ("it", "they", "that
 * team", "dort", "它们") is replaced by what it most likely refers to in the last turn; a follow-up
 * without one that only adds a twist ("And in test mode?", "Und für Seefracht?") or names nothing of its
 * own is joined to the previous question's terms.
 */
export function rewriteFollowUp(question: string, history: AgentState["history"]): string {
  if (history.length === 0) return question;
  const lang = languageOf(question);
  const langs = cueLangs(lang);
  const ref = findReference(question, langs);
  const target = ref ? referent(ref, history, lang) : undefined;
  // A short follow-up whose referent is only a name ("Who leads it?" after "Which team owns X?") may point
  // at the previous answer rather than at the name: joined to the previous question, it keeps both.
  if (ref && target && (target.strong || queryTerms(question).length > 2)) {
    const rewritten = question.slice(0, ref.start) + replacement(ref, target.text, lang) + question.slice(ref.end);
    if (target.strong) return rewritten;
    // A name or code may be only part of what was meant ("low-cost" for "the low-cost courier rate"):
    // the previous question's other terms come along.
    const have = new Set(queryTerms(rewritten));
    const more = queryTerms(lastTurns(history).user).filter((t) => !have.has(t));
    return more.length > 0 ? `${rewritten} ${more.join(" ")}` : rewritten;
  }
  const lead = findCues(question, ELLIPTIC_LEAD, langs).find((h) => question.slice(0, h.start).trim() === "");
  if (lead || queryTerms(question).length <= 2) {
    const rest = lead ? question.slice(lead.end) : question;
    return `${rest.trim()} ${queryTerms(lastTurns(history).user).join(" ")}`.trim();
  }
  return question;
}
