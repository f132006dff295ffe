import type { AgentState, EngineContext, RouteDecision } from "../../spec/engine.js";
import { extractEntities, mentions } from "../../text/entities.js";
import { coverage, termSet } from "../../text/overlap.js";
import { queryTerms } from "../../text/tokenize.js";
import type { QuestionPart } from "./analyze.js";
import { fullText } from "./evidence-view.js";
import { computeAnswer, smallTalkReply } from "./small-talk.js";

const GENERAL = /\bin general\b|\bgenerally speaking\b|\bin general terms\b/i;
const ARITHMETIC = /\bhow many\s+[\p{L} ]{1,20}\s+(?:is|are|in|make)\s+[\d.,]+\s*\p{L}+/iu;
// The whole question is the definition ("What does X mean?"), not its first clause ("What does X mean, and ...").
const DEFINITION =
  /^\s*what (?:does|do) (?:the )?(?:acronym |abbreviation |term )?(.+?) (?:stand for|mean)\s*[?.!]?\s*$|^\s*what is (?:a|an) (.+?)\??$/i;

/**
 * A relative clause in the would-be term ("a firm that ...", "a title which ...") describes a thing to find, not
 * a word to define: "what is a <noun> that <clause>" asks which one, so it is no definition question.
 */
const RELATIVE = /\b(?:that|which|who|whom|whose)\b/i;

function describeSources(state: AgentState): string {
  return state.sources.map((s) => `${s.name} (${s.description.split(/[.:]/)[0]})`).join("; ");
}

/**
 * Decides whether a question needs the knowledge base. Greetings and questions about the assistant get a
 * reply that says what it can answer; general-knowledge questions (marked "in general", arithmetic, or a
 * definition of a term the knowledge base never mentions) get a reply that it answers only from the
 * knowledge base. Everything else goes to the agentic loop, which also serves single-hop questions in
 * one round.
 */
export async function routeQuestion(state: AgentState, ctx: EngineContext): Promise<RouteDecision> {
  const q = state.standaloneQuestion.trim();
  const greeting = smallTalkReply(q, describeSources(state));
  if (greeting !== undefined) {
    return { route: "none", reason: "greeting or a question about the assistant", reply: greeting };
  }
  const computed = computeAnswer(q);
  if (computed !== undefined) {
    return { route: "none", reason: "a computation, not a question about the knowledge base", reply: computed };
  }
  const offTopicReply =
    "This looks like a general-knowledge question. I am the offline engine and answer only from the knowledge base " +
    `(${state.sources.map((s) => s.name).join(", ")}), so I did not search it; ask me about what those sources hold.`;
  if (GENERAL.test(q) || ARITHMETIC.test(q))
    return { route: "none", reason: "general knowledge", reply: offTopicReply };
  const definition = DEFINITION.exec(q);
  const term = (definition?.[1] ?? definition?.[2] ?? "").trim();
  if (definition && ctx.probe && !RELATIVE.test(term)) {
    const hits = await ctx.probe(term, { k: 3 });
    if (hits !== undefined && !hits.some((h) => namesTerm(fullText(h), term))) {
      return {
        route: "none",
        reason: `general knowledge: the knowledge base never mentions "${term}"`,
        reply: offTopicReply,
      };
    }
  }
  return { route: "agentic", reason: "the question asks about the knowledge base" };
}

/**
 * True when a passage speaks of the term: it holds the phrase, or every content word of it ("an XR-7 status
 * code" in a table of status codes that lists XR-7).
 */
export function namesTerm(text: string, term: string): boolean {
  if (mentions(text, term)) return true;
  const words = queryTerms(term);
  return words.length > 0 && coverage(words, text) === 1;
}

export interface RankedSource {
  name: string;
  score: number;
}

/**
 * Ranks the searchable sources for one lookup by how well their descriptions match it and by what a
 * quick probe search in each finds (a probe passage that mentions the part's entities counts extra).
 */
export async function rankSources(
  state: AgentState,
  ctx: EngineContext,
  part: Pick<QuestionPart, "terms" | "entities" | "aggregation">,
  query: string,
): Promise<RankedSource[]> {
  const searchable = state.sources;
  const ranked: RankedSource[] = [];
  for (const source of searchable) {
    const described = coverage(part.terms, termSet(`${source.name.replace(/_/g, " ")} ${source.description}`));
    let probe = 0;
    let entityHit = 0;
    if (ctx.probe) {
      const hits = (await ctx.probe(query, { sources: [source.name], k: 3 })) ?? [];
      probe = hits[0]?.score ?? 0;
      if (part.entities.length > 0 && hits.some((h) => part.entities.some((e) => mentions(fullText(h), e))))
        entityHit = 1;
    }
    ranked.push({ name: source.name, score: 0.35 * described + 0.65 * probe + 0.3 * entityHit });
  }
  return ranked.sort((a, b) => b.score - a.score);
}

/**
 * Entities in a text that are not in the question: candidates for the next hop. `nounCapitals`: the text is of a
 * language that capitalises every noun (German), where a capitalised word alone is no name (entities.ts).
 */
export function newEntities(text: string, question: string, nounCapitals = false): string[] {
  return extractEntities(text, { nounCapitals })
    .map((e) => e.text)
    .filter((e) => !mentions(question, e) && e.length > 2);
}
