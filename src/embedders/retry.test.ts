import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { UpstreamError } from "../spec/errors.js";
import { withRetry } from "./retry.js";

function apiError(statusCode: number | undefined, responseHeaders?: Record<string, string>): APICallError {
  return new APICallError({
    message: statusCode ? `HTTP ${statusCode}` : "fetch failed",
    url: "http://127.0.0.1/v1/embeddings",
    requestBodyValues: {},
    statusCode,
    responseHeaders,
    isRetryable: statusCode === undefined,
  });
}

describe("withRetry", () => {
  it("retries network failures (no status) and reports them without a status", async () => {
    const sleeps: number[] = [];
    let calls = 0;
    const error = await withRetry(
      async () => {
        calls++;
        throw apiError(undefined);
      },
      { label: "test:model", maxRetries: 2, initialDelayMs: 10, sleep: async (ms) => void sleeps.push(ms) },
    ).catch((e: unknown) => e);
    expect(calls).toBe(3);
    expect(sleeps).toEqual([10, 20]);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).status).toBeUndefined();
    expect((error as UpstreamError).cause).toBeInstanceOf(APICallError);
  });

  it("caps the back-off at maxDelayMs", async () => {
    const sleeps: number[] = [];
    let calls = 0;
    const result = await withRetry(
      async () => {
        if (++calls < 5) throw apiError(502);
        return "ok";
      },
      {
        label: "test:model",
        maxRetries: 5,
        initialDelayMs: 100,
        maxDelayMs: 300,
        sleep: async (ms) => void sleeps.push(ms),
      },
    );
    expect(result).toBe("ok");
    expect(sleeps).toEqual([100, 200, 300, 300]);
  });

  it("fails at once when the server asks for a wait longer than it will take", async () => {
    let calls = 0;
    const error = await withRetry(
      async () => {
        calls++;
        throw apiError(429, { "retry-after": "3600" });
      },
      { label: "test:model", sleep: async () => {} },
    ).catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect((error as UpstreamError).status).toBe(429);
    expect((error as UpstreamError).retryAfterMs).toBe(3_600_000);
  });

  it("does not retry errors that are not API call errors", async () => {
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw new TypeError("bad response shape");
        },
        { label: "test:model", sleep: async () => {} },
      ),
    ).rejects.toThrow(UpstreamError);
    expect(calls).toBe(1);
  });
});
