import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UpstreamError } from "../spec/errors.js";
import {
  chatCompletion,
  chatError,
  type ScriptedServer,
  startScriptedServer,
} from "./__fixtures__/scripted-openai-server.js";
import { makeState } from "./__fixtures__/state.js";
import { createLlmEngine, type LlmEngineOptions } from "./llm-engine.js";
import { resolveModel } from "./resolve.js";

let server: ScriptedServer;
let waits: number[];

beforeEach(async () => {
  server = await startScriptedServer();
  waits = [];
});
afterEach(async () => {
  await server.close();
});

function engine(options: Partial<LlmEngineOptions> = {}) {
  const planner = resolveModel({ spec: "openai-compatible:test-model", baseUrl: `${server.url}/v1`, env: {} });
  return createLlmEngine({
    planner,
    timeoutMs: 10_000,
    retry: { initialDelayMs: 250 },
    // Records the back-off instead of waiting it out.
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
}

const searchCall = chatCompletion({
  toolCalls: [{ name: "search", arguments: '{"query":"refunds","corpus":"handbook"}' }],
});

function plan(e: ReturnType<typeof engine>, signal = new AbortController().signal) {
  return e.plan(makeState(), { signal });
}

describe("model calls over HTTP: retries, timeouts, typed failures", () => {
  it("waits as long as Retry-After says on 429, then succeeds", async () => {
    server.push(chatError(429, "Rate limit reached", { "retry-after": "3" }), searchCall);
    const result = await plan(engine());
    expect(result.calls).toHaveLength(1);
    expect(waits).toEqual([3000]);
    expect(server.requests).toHaveLength(2);
    expect(result.usage).toHaveLength(1);
  });

  it("honours retry-after-ms over retry-after", async () => {
    server.push(chatError(429, "slow down", { "retry-after-ms": "40", "retry-after": "9" }), searchCall);
    await plan(engine());
    expect(waits).toEqual([40]);
  });

  it("backs off exponentially on 5xx without Retry-After, then succeeds", async () => {
    server.push(chatError(500, "boom"), chatError(503, "unavailable"), searchCall);
    const result = await plan(engine({ maxRetries: 2 }));
    expect(result.calls).toEqual([{ tool: "search", args: { query: "refunds", corpus: "handbook" } }]);
    expect(waits).toEqual([250, 500]);
  });

  it("throws UpstreamError with status once retries are spent", async () => {
    server.push(chatError(500, "boom"), chatError(500, "boom again"));
    const error = await plan(engine({ maxRetries: 1 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ name: "UpstreamError", category: "upstream", status: 500 });
    expect((error as Error).message).toContain("HTTP 500");
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry a client error", async () => {
    server.push(chatError(400, "bad request: unknown parameter"), searchCall);
    const error = await engine()
      .route(makeState(), { signal: new AbortController().signal })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "UpstreamError", status: 400 });
    expect(server.requests).toHaveLength(1);
  });

  it("gives up on a Retry-After longer than the policy allows, reporting how long", async () => {
    server.push(chatError(429, "quota", { "retry-after": "3600" }));
    const error = await plan(engine()).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "UpstreamError", status: 429, retryAfterMs: 3_600_000 });
    expect(waits).toEqual([]);
  });

  it("times out a hung response as a typed UpstreamError", async () => {
    server.push({ hang: true });
    const error = await plan(engine({ timeoutMs: 150, maxRetries: 0 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).message).toContain("timed out after 150 ms");
    expect((error as UpstreamError).context).toMatchObject({ role: "planner", timeoutMs: 150 });
  });

  it("rethrows the caller's abort reason rather than wrapping it", async () => {
    server.push({ hang: true });
    const controller = new AbortController();
    const pending = plan(engine(), controller.signal).catch((e: unknown) => e);
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    const reason = new Error("run aborted by user");
    controller.abort(reason);
    expect(await pending).toBe(reason);
  });
});
