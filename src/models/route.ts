/**
 * The router: none (reply directly), rag (one search) or agentic (several steps), with a short reason. After a
 * first search (the engine's `searchFirst`) it sees the passages, and for `rag` answers from them in the same
 * call, so an easy question costs one model call.
 */
import type { AgentState, RouteDecision, WithUsage } from "../spec/engine.js";
import { toDraftAnswer } from "./answer.js";
import type { CallSettings } from "./call.js";
import { routerAnswerPrompt, routerPrompt } from "./prompts.js";
import type { ResolvedModel } from "./resolve.js";
import { routeAnswerReplySchema, routeReplySchema } from "./schemas.js";
import { generateStructured } from "./structured.js";

interface RouteOptions {
  state: AgentState;
  model: ResolvedModel;
  signal: AbortSignal;
  settings: CallSettings;
  /** With passages already found, read them and answer from them when they suffice (the router is the answerer). */
  answer?: boolean;
}

/** Most searches a router may propose. */
const MAX_SEARCHES = 4;

/** A route, and for `agentic` after a first search, the searches the router proposes for the first step. */
export type RoutedQuestion = WithUsage<RouteDecision> & { searches?: string[] };

export async function routeQuestion(options: RouteOptions): Promise<RoutedQuestion> {
  const { state } = options;
  const found = state.evidence.length > 0 || state.calls.some((c) => c.rows?.length);
  if (found && options.answer !== false) return routeWithEvidence(options);
  const { value, usage } = await generateStructured({
    role: "router",
    model: options.model,
    schema: routeReplySchema,
    name: "route",
    prompt: routerPrompt(state),
    question: state.question,
    signal: options.signal,
    settings: options.settings,
  });
  const reply = value.reply?.trim();
  // "none" without a reply to give is not usable; retrieval is the safe choice.
  if (value.route === "none" && !reply) {
    return { route: "rag", reason: `${value.reason} (no direct reply given; retrieving instead)`, usage };
  }
  return { route: value.route, reason: value.reason, ...(value.route === "none" && reply ? { reply } : {}), usage };
}

async function routeWithEvidence(options: RouteOptions): Promise<RoutedQuestion> {
  const { state } = options;
  const { value, usage } = await generateStructured({
    role: "router",
    model: options.model,
    schema: routeAnswerReplySchema,
    name: "route_or_answer",
    prompt: routerAnswerPrompt(state),
    question: state.question,
    signal: options.signal,
    settings: options.settings,
    defaults: { reply: null, answer: null, searches: null },
  });
  const reply = value.reply?.trim();
  if (value.route === "none" && reply) return { route: "none", reason: value.reason, reply, usage };
  if (value.route === "none") {
    return { route: "rag", reason: `${value.reason} (no direct reply given; answering from the passages)`, usage };
  }
  const searches = [...new Set((value.searches ?? []).map((q) => q.trim()).filter(Boolean))].slice(0, MAX_SEARCHES);
  const more = searches.length > 0 ? { searches } : {};
  if (value.route === "agentic") {
    // An explicit [] with a partial or refused draft: nothing more is worth searching, so that draft is the answer.
    const draft =
      Array.isArray(value.searches) && searches.length === 0 && value.answer && toDraftAnswer(value.answer, []);
    if (draft && draft.status !== "answered") {
      return { route: "rag", reason: `${value.reason} (nothing more worth searching)`, answer: draft, usage };
    }
    return { route: "agentic", reason: value.reason, ...more, usage };
  }
  if (!value.answer) return { route: value.route, reason: value.reason, usage };
  const draft = toDraftAnswer(value.answer, []);
  // A router that says the passages answer it but drafts no full answer has not answered: search more.
  if (draft.status !== "answered") {
    return {
      route: "agentic",
      reason: `${value.reason} (the draft was ${draft.status}; searching more)`,
      ...more,
      usage,
    };
  }
  return { route: "rag", reason: value.reason, answer: draft, usage };
}
