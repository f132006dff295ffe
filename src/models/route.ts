/** The router: none (reply directly), rag (one search) or agentic (several steps), with a short reason. */
import type { AgentState, RouteDecision, WithUsage } from "../spec/engine.js";
import type { CallSettings } from "./call.js";
import { routerPrompt } from "./prompts.js";
import type { ResolvedModel } from "./resolve.js";
import { routeReplySchema } from "./schemas.js";
import { generateStructured } from "./structured.js";

export async function routeQuestion(options: {
  state: AgentState;
  model: ResolvedModel;
  signal: AbortSignal;
  settings: CallSettings;
}): Promise<WithUsage<RouteDecision>> {
  const { value, usage } = await generateStructured({
    role: "router",
    model: options.model,
    schema: routeReplySchema,
    name: "route",
    prompt: routerPrompt(options.state),
    question: options.state.question,
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
