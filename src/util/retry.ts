/**
 * Retry with exponential back-off on 408/409/429/5xx and network failures, honouring `Retry-After` and
 * `retry-after-ms`: the one retry of every upstream call (models, embedders, rerankers). The AI SDK's own retry
 * honours those headers too, but starts at a fixed 2 s and cannot take an injected clock; ferret calls it with
 * `maxRetries: 0` and retries here instead.
 */
import { APICallError } from "ai";

export interface RetryPolicy {
  maxRetries: number;
  initialDelayMs: number;
  maxDelayMs: number;
  /** A server asking to wait longer than this is not retried (the caller reports it as rate limited). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  initialDelayMs: 1000,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
};

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const sleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

function apiError(error: unknown): APICallError | undefined {
  if (APICallError.isInstance(error)) return error;
  if (error instanceof Error && APICallError.isInstance(error.cause)) return error.cause;
  return undefined;
}

/** The HTTP status of a failed model call, when it got that far. */
export function errorStatus(error: unknown): number | undefined {
  return apiError(error)?.statusCode;
}

/** Milliseconds the server asked us to wait, from `retry-after-ms` or `retry-after` (seconds or a date). */
export function retryAfterMs(options: { error: unknown; now?: number }): number | undefined {
  const headers = apiError(options.error)?.responseHeaders;
  if (!headers) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = Number.parseFloat(lower["retry-after-ms"] ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = lower["retry-after"];
  if (raw === undefined) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - (options.now ?? Date.now()));
}

/** Worth trying again: rate limits, server errors, timeouts reported by the server, dropped connections. */
export function isRetryable(error: unknown): boolean {
  const api = apiError(error);
  if (!api) return false;
  const status = api.statusCode;
  if (status === undefined) return api.isRetryable;
  return status === 408 || status === 409 || status === 429 || status >= 500 || api.isRetryable;
}

/** Runs `run`, retrying retryable failures; the last failure is thrown as is, an abort as its reason. */
export async function withRetry<T>(options: {
  run: (attempt: number) => Promise<T>;
  policy?: Partial<RetryPolicy>;
  signal?: AbortSignal;
  sleep?: Sleep;
  /** Called before each wait, e.g. to log it. */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}): Promise<T> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.policy };
  const wait = options.sleep ?? sleep;
  for (let attempt = 0; ; attempt++) {
    try {
      return await options.run(attempt);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      if (attempt >= policy.maxRetries || !isRetryable(error)) throw error;
      const asked = retryAfterMs({ error });
      if (asked !== undefined && asked > policy.maxRetryAfterMs) throw error;
      const backoff = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** attempt);
      const delayMs = asked ?? backoff;
      options.onRetry?.({ attempt, delayMs, error });
      await wait(delayMs, options.signal);
    }
  }
}
