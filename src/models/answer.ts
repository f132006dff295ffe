/**
 * The answerer: claims from the numbered evidence only, each cited with [n] and an exact quote; a refusal
 * with a reason when the evidence does not answer the question. With no evidence at all it refuses without
 * calling the model.
 */
import type { AgentState, DraftAnswer, LlmUsage, WithUsage } from "../spec/engine.js";
import type { CallSettings } from "./call.js";
import { answererPrompt, noEvidenceReason } from "./prompts.js";
import type { ResolvedModel } from "./resolve.js";
import { type AnswerReply, answerReplySchema } from "./schemas.js";
import { generateStructured } from "./structured.js";

export async function answerFromEvidence(options: {
  state: AgentState;
  model: ResolvedModel;
  signal: AbortSignal;
  settings: CallSettings;
}): Promise<WithUsage<DraftAnswer>> {
  const { state } = options;
  const nothing = noEvidenceAnswer(state);
  if (nothing) return nothing;
  const { value, usage } = await generateStructured({
    role: "answerer",
    model: options.model,
    schema: answerReplySchema,
    name: "cited_answer",
    prompt: answererPrompt(state),
    question: state.question,
    signal: options.signal,
    settings: options.settings,
  });
  return toDraftAnswer(value, usage);
}

/** A validated answerer reply as a DraftAnswer: empty claims dropped, "answered" without claims is a refusal. */
export function toDraftAnswer(value: AnswerReply, usage: LlmUsage[]): WithUsage<DraftAnswer> {
  const claims = value.claims
    .map((c) => ({
      text: c.text.trim(),
      citations: c.citations
        .filter((cite) => cite.quote.trim().length > 0)
        .map((cite) => ({ n: cite.n, quote: cite.quote })),
    }))
    .filter((c) => c.text.length > 0);
  // A model that says "answered" but gives no claims has not answered.
  const status = claims.length === 0 ? "refused" : value.status;
  const reason =
    value.reason?.trim() || (status === "answered" ? undefined : "The passages found do not answer the question.");
  return { status, claims, ...(reason ? { reason } : {}), usage };
}

/** The answer when nothing at all was found: a refusal, without a model call. */
export function noEvidenceAnswer(state: AgentState): WithUsage<DraftAnswer> | undefined {
  if (state.evidence.length > 0 || state.calls.some((c) => c.rows?.length)) return undefined;
  return { status: "refused", claims: [], reason: noEvidenceReason(state), usage: [] };
}
