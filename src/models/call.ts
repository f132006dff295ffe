/**
 * One model call as the engine makes it: per-attempt timeout, retries, failures mapped to typed errors,
 * and an `LlmUsage` entry (role, model, tokens, cost, ms) for the result.
 */
import type { LlmUsage } from "../spec/engine.js";
import { UpstreamError } from "../spec/errors.js";
import { errorStatus, isRetryable, type RetryPolicy, retryAfterMs, type Sleep, withRetry } from "../util/retry.js";
import { callCost } from "./pricing.js";
import type { ResolvedModel } from "./resolve.js";

export type LlmRole = LlmUsage["role"];

export interface CallSettings {
  /** Per attempt. */
  timeoutMs: number;
  retry: Partial<RetryPolicy>;
  now: () => number;
  sleep?: Sleep;
}

export interface TokenCounts {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
}

/** A usage entry for one finished call. */
export function usageEntry(options: {
  role: LlmRole;
  model: ResolvedModel;
  tokens: TokenCounts | undefined;
  ms: number;
}): LlmUsage {
  const inputTokens = options.tokens?.inputTokens ?? 0;
  const outputTokens = options.tokens?.outputTokens ?? 0;
  return {
    role: options.role,
    model: options.model.id,
    inputTokens,
    outputTokens,
    costUsd: callCost({ pricing: options.model.pricing, inputTokens, outputTokens }),
    ms: Math.max(0, Math.round(options.ms)),
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs `run` with timeout and retries; returns its result and usage. Aborts by the caller are rethrown as is. */
export async function callModel<R extends { usage?: TokenCounts | undefined }>(options: {
  role: LlmRole;
  model: ResolvedModel;
  signal: AbortSignal;
  settings: CallSettings;
  run: (abortSignal: AbortSignal) => Promise<R>;
}): Promise<{ result: R; usage: LlmUsage }> {
  const { role, model, signal, settings } = options;
  const started = settings.now();
  let timedOut = false;
  try {
    const result = await withRetry({
      policy: settings.retry,
      signal,
      sleep: settings.sleep,
      run: async () => {
        const timeout = new AbortController();
        const timer = setTimeout(() => {
          timedOut = true;
          timeout.abort(new Error(`timed out after ${settings.timeoutMs} ms`));
        }, settings.timeoutMs);
        try {
          return await options.run(AbortSignal.any([signal, timeout.signal]));
        } finally {
          clearTimeout(timer);
        }
      },
    });
    return { result, usage: usageEntry({ role, model, tokens: result.usage, ms: settings.now() - started }) };
  } catch (error) {
    throw typedCallError({ error, role, model, signal, timedOutAfterMs: timedOut ? settings.timeoutMs : undefined });
  }
}

/**
 * The error a failed call surfaces: the caller's abort reason as is; a timeout or an HTTP / network failure
 * as UpstreamError (with status and Retry-After); anything else unchanged.
 */
export function typedCallError(options: {
  error: unknown;
  role: LlmRole;
  model: ResolvedModel;
  signal: AbortSignal;
  timedOutAfterMs?: number;
}): unknown {
  const { error, role, model, signal } = options;
  if (signal.aborted) return signal.reason ?? error;
  const context = { role, model: model.id };
  if (options.timedOutAfterMs !== undefined) {
    return new UpstreamError(`${role} call to ${model.id} timed out after ${options.timedOutAfterMs} ms`, {
      cause: error,
      context: { ...context, timeoutMs: options.timedOutAfterMs },
    });
  }
  const status = errorStatus(error);
  if (status !== undefined || isRetryable(error)) {
    return new UpstreamError(
      `${role} call to ${model.id} failed${status ? ` (HTTP ${status})` : ""}: ${describe(error)}`,
      {
        status,
        retryAfterMs: retryAfterMs({ error }),
        cause: error,
        context,
      },
    );
  }
  return error;
}
