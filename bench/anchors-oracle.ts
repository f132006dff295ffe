/**
 * The scripted decisions of the anchors bench's simulated model. It knows each question's gold data (its
 * answer keywords, an expert's sub-questions, the gold documents) and decides only from what a request shows
 * it: which known question the request is about, which passages it holds (ferret's fence format, which every
 * system in the bench uses to show passages to the model), and which searches were already made. So the
 * three systems get the same decision in the same situation; they differ in how many situations they create.
 *
 * Policy, for every system alike:
 *  - the evidence is sufficient when every answer-keyword group occurs in some passage (never for a question
 *    that must be refused);
 *  - with no search made yet, search the question itself; after that, search the sub-questions whose gold
 *    document has not been seen (all at once, except for multi-hop questions: one hop at a time); a query is
 *    never repeated;
 *  - the answer is the sentence of each group's first passage that holds a keyword; a refusal when none does.
 */
import { matchesGold } from "../src/eval/metrics/ids.js";
import { containsKeyword } from "../src/eval/metrics/text.js";
import type { EvalQuestion } from "../src/eval/schema.js";
import { sentences } from "../src/text/tokenize.js";

/** A passage as the model sees it in a request: its number, id and (fenced) text. */
export interface SeenPassage {
  n: number;
  id: string;
  text: string;
}

/** What the model reads out of one request. */
export interface RequestView {
  question: EvalQuestion;
  passages: SeenPassage[];
  /** The request shows a search with exactly this query. */
  searched(query: string): boolean;
}

/** One sentence that states part of the answer, and the passage it is in. */
export interface Support {
  n: number;
  sentence: string;
  /** A short exact span of the sentence around the keyword, for a citation quote. */
  quote: string;
}

export interface Drafted {
  status: "answered" | "partial" | "refused";
  supports: Support[];
}

const QUOTE_WORDS = 8;

export class Oracle {
  readonly #questions: EvalQuestion[];

  constructor(questions: readonly EvalQuestion[]) {
    // Longest first, so a question that contains another is matched as itself.
    this.#questions = [...questions].sort((a, b) => b.question.length - a.question.length);
  }

  /** Reads a request: the known question it is about, its passages, its searches. Throws when it is about none. */
  view(text: string): RequestView {
    const question = this.#questions.find((q) => text.includes(q.question));
    if (!question) throw new Error(`anchors oracle: no known question in a request of ${text.length} characters`);
    return {
      question,
      passages: parsePassages(text),
      searched: (query) => text.includes(`"query":${JSON.stringify(query)}`),
    };
  }

  /** The supporting sentence of each keyword group, or undefined when some group is in no passage. */
  sufficient(view: RequestView): Support[] | undefined {
    const q = view.question;
    if (q.expect_refusal || q.answer_keywords.length === 0) return undefined;
    const found = supportsOf(view);
    return found.every((s) => s !== undefined) ? dedupe(found as Support[]) : undefined;
  }

  /** The answer from what the request shows: answered, partial (some groups), or refused. */
  draft(view: RequestView): Drafted {
    const q = view.question;
    if (q.expect_refusal || q.answer_keywords.length === 0) return { status: "refused", supports: [] };
    const found = supportsOf(view);
    const supports = dedupe(found.filter((s): s is Support => s !== undefined));
    if (supports.length === 0) return { status: "refused", supports };
    return { status: found.every((s) => s !== undefined) ? "answered" : "partial", supports };
  }

  /** A question that needs no retrieval, and the reply to give (the gold answer). */
  directReply(view: RequestView): string | undefined {
    return view.question.type === "no_retrieval" ? view.question.answer : undefined;
  }

  /** The searches to make next (empty: nothing more is worth searching). */
  nextQueries(view: RequestView): string[] {
    const q = view.question;
    if (!view.searched(q.question)) return [q.question];
    const open = q.sub_questions.filter(
      (sub, i) => sub.trim() !== "" && !view.searched(sub) && !this.#goldSeen(view, q.gold_sources[i]),
    );
    return q.type === "multi_hop" ? open.slice(0, 1) : open;
  }

  /** The sub-question's gold document is among the passages (only when sub-questions and gold ids pair up). */
  #goldSeen(view: RequestView, gold: string | undefined): boolean {
    const q = view.question;
    if (gold === undefined || q.gold_sources.length !== q.sub_questions.length) return false;
    return view.passages.some((p) => matchesGold({ id: p.id, docId: p.id.split("::")[0] ?? p.id }, gold));
  }
}

/** The answer text a plain-text system gives for a draft: the supporting sentences, or a refusal. */
export function draftText(draft: Drafted): string {
  if (draft.status === "refused") return "The sources found do not answer this question.";
  return draft.supports.map((s) => s.sentence).join(" ");
}

function supportsOf(view: RequestView): (Support | undefined)[] {
  return view.question.answer_keywords.map((group) => {
    for (const p of view.passages) {
      for (const s of sentences(p.text)) {
        const keyword = group.find((k) => containsKeyword(s.text, k));
        if (keyword) return { n: p.n, sentence: s.text, quote: quoteAround(s.text, keyword) };
      }
    }
    return undefined;
  });
}

function dedupe(supports: Support[]): Support[] {
  const seen = new Set<string>();
  return supports.filter((s) => {
    const key = `${s.n}\u0000${s.sentence}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Up to QUOTE_WORDS whitespace-separated words of `sentence` around the first occurrence of `keyword`. */
export function quoteAround(sentence: string, keyword: string): string {
  const at = sentence.toLowerCase().indexOf(keyword.toLowerCase());
  if (at < 0) return sentence;
  const words = [...sentence.matchAll(/\S+/g)];
  const first = words.findIndex((w) => w.index + w[0].length > at);
  const start = Math.max(0, first - Math.floor(QUOTE_WORDS / 2));
  const chosen = words.slice(start, start + QUOTE_WORDS);
  const from = chosen[0]?.index ?? 0;
  const last = chosen.at(-1);
  return last ? sentence.slice(from, last.index + last[0].length) : sentence;
}

/** The passages of ferret's fence format (`<<<passage n id="..." ...>>>` ... `<<<end passage n>>>`), in order. */
export function parsePassages(text: string): SeenPassage[] {
  const out: SeenPassage[] = [];
  const open = "<<<passage ";
  let from = 0;
  for (;;) {
    const start = text.indexOf(open, from);
    if (start < 0) return out;
    from = start + open.length;
    // A marker is `<<<passage <n> ...>>>` on its own line (instructions that merely name the format are not).
    const number = /^(\d+)[^\n]*>>>\n/.exec(text.slice(from, from + 2000));
    if (!number?.[1]) continue;
    const n = Number.parseInt(number[1], 10);
    const headEnd = from + number[0].length;
    const close = `\n<<<end passage ${n}>>>`;
    const end = text.indexOf(close, headEnd);
    if (end < 0) continue;
    const id = /id="([^"]*)"/.exec(number[0])?.[1] ?? "";
    out.push({ n, id, text: text.slice(headEnd, end) });
    from = end + close.length;
  }
}
