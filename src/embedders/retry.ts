import { UpstreamError } from "../spec/errors.js";
import { errorStatus, retryAfterMs, withRetry as retrying } from "../util/retry.js";

/** An embedder's retry settings; the back-off itself is the shared one (`util/retry.ts`). */
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
 * Runs `call` under the shared retry (408, 409, 429, 5xx and network failures, exponential back-off,
 * `retry-after-ms` and `retry-after` honoured). Aborts are rethrown as they are; anything else that survives
 * the retries becomes an `UpstreamError` naming the embedder and carrying the HTTP status.
 */
export async function withRetry<T>(call: () => Promise<T>, options: WithRetryOptions): Promise<T> {
  options.signal?.throwIfAborted();
  let attempts = 1;
  try {
    return await retrying({
      run: () => call(),
      policy: {
        maxRetries: options.maxRetries ?? 3,
        initialDelayMs: options.initialDelayMs ?? 1000,
        maxDelayMs: options.maxDelayMs ?? 30_000,
        maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
      },
      signal: options.signal,
      sleep: options.sleep,
      onRetry: () => {
        attempts++;
      },
    });
  } catch (error) {
    if (isAbort(error, options.signal)) throw error;
    throw toUpstreamError(error, { label: options.label, attempts });
  }
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return true;
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

function toUpstreamError(error: unknown, context: { label: string; attempts: number }): UpstreamError {
  const status = errorStatus(error);
  const reason = error instanceof Error ? error.message : String(error);
  const code = status === undefined ? "" : ` (HTTP ${status})`;
  const tries = context.attempts === 1 ? "1 attempt" : `${context.attempts} attempts`;
  return new UpstreamError(`embedder ${context.label} failed after ${tries}${code}: ${reason}`, {
    status,
    retryAfterMs: retryAfterMs({ error }),
    cause: error,
    context: { embedder: context.label, attempts: context.attempts },
  });
}
