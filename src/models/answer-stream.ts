/**
 * The answerer, streamed: claim text arrives as deltas while the model writes its JSON reply; the final
 * DraftAnswer is validated as in `answerFromEvidence`. Deltas are a preview: when the streamed reply turns
 * out unusable, or the stream fails in a way worth retrying, the answer falls back to the non-streaming
 * answerer (with its retries), whose result wins.
 */
import { Output, streamText } from "ai";
import type { AgentState, AnswerStreamV1, DraftAnswer, LlmUsage, WithUsage } from "../spec/engine.js";
import { DEFAULT_RETRY_POLICY, isRetryable } from "../util/retry.js";
import { answerFromEvidence, noEvidenceAnswer, toDraftAnswer } from "./answer.js";
import { type CallSettings, type TokenCounts, typedCallError, usageEntry } from "./call.js";
import { answererPrompt } from "./prompts.js";
import type { ResolvedModel } from "./resolve.js";
import { answerReplySchema } from "./schemas.js";
import { repairStructured } from "./structured.js";

/** Claim text as it is written (claims joined by a space), then the validated answer (authoritative). */
export type AnswerStream = AnswerStreamV1;

/** The readable text of a partial reply: claim texts joined by a space. */
export function partialClaimsText(partial: unknown): string {
  const claims = (partial as { claims?: unknown } | undefined)?.claims;
  if (!Array.isArray(claims)) return "";
  return claims
    .map((c) => (typeof (c as { text?: unknown })?.text === "string" ? (c as { text: string }).text : ""))
    .filter((t) => t.length > 0)
    .join(" ");
}

async function* noDeltas(): AsyncIterable<string> {}

export function streamAnswer(options: {
  state: AgentState;
  model: ResolvedModel;
  signal: AbortSignal;
  settings: CallSettings;
}): AnswerStream {
  const { state, model, settings } = options;
  const nothing = noEvidenceAnswer(state);
  if (nothing) return { deltas: noDeltas(), answer: Promise.resolve(nothing) };

  const prompt = answererPrompt(state);
  const started = settings.now();
  const timeout = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    timeout.abort(new Error(`timed out after ${settings.timeoutMs} ms`));
  }, settings.timeoutMs);
  let streamError: unknown;
  const result = streamText({
    model: model.model,
    system: prompt.system,
    prompt: prompt.prompt,
    output: model.structuredOutputs
      ? Output.object({ schema: answerReplySchema, name: "cited_answer" })
      : Output.json(),
    maxRetries: 0,
    abortSignal: AbortSignal.any([options.signal, timeout.signal]),
    onError: ({ error }) => {
      streamError ??= error;
    },
  });

  async function* deltas(): AsyncIterable<string> {
    let shown = "";
    for await (const partial of result.partialOutputStream) {
      const text = partialClaimsText(partial);
      if (text.length > shown.length && text.startsWith(shown)) {
        yield text.slice(shown.length);
        shown = text;
      }
    }
  }

  const answer = (async (): Promise<WithUsage<DraftAnswer>> => {
    try {
      await result.consumeStream({
        onError: (error) => {
          streamError ??= error;
        },
      });
      if (streamError !== undefined) {
        // A rate limit or a dropped connection gets the non-streaming answerer, which retries with back-off.
        const retries = settings.retry.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries;
        if (!timedOut && !options.signal.aborted && retries > 0 && isRetryable(streamError))
          return await answerFromEvidence(options);
        throw typedCallError({
          error: streamError,
          role: "answerer",
          model,
          signal: options.signal,
          timedOutAfterMs: timedOut ? settings.timeoutMs : undefined,
        });
      }
      const text = await result.text;
      const tokens: TokenCounts = await Promise.resolve(result.usage).catch(() => ({}));
      const usage: LlmUsage[] = [usageEntry({ role: "answerer", model, tokens, ms: settings.now() - started })];
      const repaired = repairStructured(answerReplySchema, text);
      if ("value" in repaired) return toDraftAnswer(repaired.value, usage);
      const fallback = await answerFromEvidence(options);
      return { ...fallback, usage: [...usage, ...(fallback.usage ?? [])] };
    } finally {
      clearTimeout(timer);
    }
  })();
  // The caller may only read deltas; an unobserved failure must not crash the process.
  answer.catch(() => undefined);
  return { deltas: deltas(), answer };
}
