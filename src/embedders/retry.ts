import { APICallError } from "ai";
import { UpstreamError } from "../spec/errors.js";

export interface RetryPolicy {
  /** Attempts after the first one. Default 3. */
  maxRetries?: number;
  /** Delay before the first retry when the server names none; doubles each time. Default 1000 ms. */
  initialDelayMs?: number;
  /** Longest back-off delay we compute ourselves. Default 30 s. */
  maxDelayMs?: number;
  /** A server asking to wait longer than this is not waited for: the call fails at once. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Injected in tests; default waits on a timer that the signal cancels. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface WithRetryOptions extends RetryPolicy {
  /** What is being called, for the error message (`openai:text-embedding-3-small`). */
  label: string;
  signal?: AbortSignal;
}

/**
 * Runs `call`, retrying on 408, 409, 429, 5xx and network failures with exponential back-off, honouring
 * `retry-after-ms` and `retry-after` (seconds or an HTTP date). The AI SDK's own retry starts at a fixed 2 s and
 * cannot be tuned from `embedMany`, so embedders call it with `maxRetries: 0` and retry here. Aborts are rethrown
 * as they are; anything else that survives the retries becomes an `UpstreamError` carrying the HTTP status.
 */
export async function withRetry<T>(call: () => Promise<T>, options: WithRetryOptions): Promise<T> {
  const maxRetries = options.maxRetries ?? 3;
  const initialDelayMs = options.initialDelayMs ?? 1000;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const sleep = options.sleep ?? abortableSleep;
  for (let attempt = 0; ; attempt++) {
    options.signal?.throwIfAborted();
    try {
      return await call();
    } catch (error) {
      if (isAbort(error, options.signal)) throw error;
      const status = APICallError.isInstance(error) ? error.statusCode : undefined;
      const retryable = APICallError.isInstance(error) && (error.isRetryable || isRetryableStatus(status));
      const retryAfterMs = APICallError.isInstance(error) ? retryAfterFromHeaders(error.responseHeaders) : undefined;
      const tooLong = retryAfterMs !== undefined && retryAfterMs > maxRetryAfterMs;
      if (!retryable || attempt >= maxRetries || tooLong) {
        throw toUpstreamError(error, { label: options.label, status, retryAfterMs, attempts: attempt + 1 });
      }
      const backoff = Math.min(maxDelayMs, initialDelayMs * 2 ** attempt);
      await sleep(retryAfterMs ?? backoff, options.signal);
    }
  }
}

function isRetryableStatus(status: number | undefined): boolean {
  return status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500);
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return true;
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

/** Milliseconds the server asked us to wait, if it said. */
export function retryAfterFromHeaders(
  headers: Record<string, string> | undefined,
  now: () => number = Date.now,
): number | undefined {
  if (!headers) return undefined;
  const get = (name: string) => {
    for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
    return undefined;
  };
  const ms = Number.parseFloat(get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = get("retry-after");
  if (after === undefined) return undefined;
  const seconds = Number.parseFloat(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

function toUpstreamError(
  error: unknown,
  context: { label: string; status?: number; retryAfterMs?: number; attempts: number },
): UpstreamError {
  const reason = error instanceof Error ? error.message : String(error);
  const status = context.status === undefined ? "" : ` (HTTP ${context.status})`;
  const tries = context.attempts === 1 ? "1 attempt" : `${context.attempts} attempts`;
  return new UpstreamError(`embedder ${context.label} failed after ${tries}${status}: ${reason}`, {
    status: context.status,
    retryAfterMs: context.retryAfterMs,
    cause: error,
    context: { embedder: context.label, attempts: context.attempts },
  });
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
