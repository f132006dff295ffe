import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { isRetryable, retryAfterMs, withRetry } from "./retry.js";

function apiError(statusCode: number | undefined, headers: Record<string, string> = {}, isRetryable = false) {
  return new APICallError({
    message: `HTTP ${statusCode}`,
    url: "http://127.0.0.1/v1/chat/completions",
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    isRetryable,
  });
}

describe("retryAfterMs", () => {
  it("reads seconds, milliseconds and HTTP dates", () => {
    expect(retryAfterMs({ error: apiError(429, { "retry-after": "2" }) })).toBe(2000);
    expect(retryAfterMs({ error: apiError(429, { "retry-after": "1.5" }) })).toBe(1500);
    expect(retryAfterMs({ error: apiError(429, { "retry-after-ms": "250" }) })).toBe(250);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs({ error: apiError(503, { "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }), now })).toBe(5000);
    expect(retryAfterMs({ error: apiError(429) })).toBeUndefined();
    expect(retryAfterMs({ error: new Error("x") })).toBeUndefined();
  });
});

describe("isRetryable", () => {
  it("retries rate limits, server errors and dropped connections, not client errors", () => {
    expect([408, 409, 429, 500, 502, 503, 529].map((s) => isRetryable(apiError(s)))).toEqual(Array(7).fill(true));
    expect([400, 401, 403, 404, 422].map((s) => isRetryable(apiError(s)))).toEqual(Array(5).fill(false));
    expect(isRetryable(apiError(undefined, {}, true))).toBe(true);
    expect(isRetryable(new TypeError("bad"))).toBe(false);
  });
});

describe("withRetry", () => {
  it("retries with exponential back-off up to maxRetries, then throws the last error", async () => {
    const waits: number[] = [];
    let calls = 0;
    const error = await withRetry({
      run: async () => {
        calls += 1;
        throw apiError(500);
      },
      policy: { maxRetries: 3, initialDelayMs: 10, maxDelayMs: 25 },
      sleep: async (ms) => {
        waits.push(ms);
      },
    }).catch((e: unknown) => e);
    expect(calls).toBe(4);
    expect(waits).toEqual([10, 20, 25]);
    expect(APICallError.isInstance(error)).toBe(true);
  });

  it("stops when the caller aborts during a wait", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    const result = withRetry({
      run: async () => {
        throw apiError(503);
      },
      policy: { maxRetries: 5, initialDelayMs: 60_000 },
      signal: controller.signal,
    }).catch((e: unknown) => e);
    controller.abort(reason);
    expect(await result).toBe(reason);
  });
});
