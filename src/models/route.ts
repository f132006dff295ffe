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
}

export async function routeQuestion(options: RouteOptions): Promise<WithUsage<RouteDecision>> {
  const { state } = options;
  if (state.evidence.length > 0 || state.calls.some((c) => c.rows?.length)) return routeWithEvidence(options);
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

async function routeWithEvidence(options: RouteOptions): Promise<WithUsage<RouteDecision>> {
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
  });
  const reply = value.reply?.trim();
  if (value.route === "none" && reply) return { route: "none", reason: value.reason, reply, usage };
  if (value.route === "none") {
    return { route: "rag", reason: `${value.reason} (no direct reply given; answering from the passages)`, usage };
  }
  if (value.route === "agentic" || !value.answer) return { route: value.route, reason: value.reason, usage };
  const draft = toDraftAnswer(value.answer, []);
  // A router that says the passages answer it but drafts no full answer has not answered: search more.
  if (draft.status !== "answered") {
    return { route: "agentic", reason: `${value.reason} (the draft was ${draft.status}; searching more)`, usage };
  }
  return { route: "rag", reason: value.reason, answer: draft, usage };
}
