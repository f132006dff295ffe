/** The engine against recorded Anthropic Messages API responses, served over loopback HTTP. */
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type ScriptedResponse,
  type ScriptedServer,
  startScriptedServer,
} from "./__fixtures__/scripted-openai-server.js";
import { evidence, makeState } from "./__fixtures__/state.js";
import { createLlmEngine } from "./llm-engine.js";
import { resolveModel } from "./resolve.js";

let server: ScriptedServer;
let waits: number[];
const ctx = { signal: new AbortController().signal };

function recorded(name: string, status = 200, headers?: Record<string, string>): ScriptedResponse {
  const json: unknown = JSON.parse(
    readFileSync(new URL(`./__fixtures__/anthropic/${name}.json`, import.meta.url), "utf8"),
  );
  return { status, headers: { "request-id": "req_test", ...headers }, json };
}

beforeEach(async () => {
  server = await startScriptedServer();
  waits = [];
});
afterEach(async () => {
  await server.close();
});

function engine() {
  const planner = resolveModel({
    spec: "anthropic:claude-haiku-4-5",
    baseUrl: `${server.url}/v1`,
    apiKey: "sk-ant-test",
    env: {},
  });
  return createLlmEngine({
    planner,
    sleep: async (ms) => {
      waits.push(ms);
    },
    retry: { initialDelayMs: 100 },
  });
}

interface MessagesRequest {
  model: string;
  system?: { type: string; text: string }[];
  messages: { role: string; content: { type: string; text: string }[] }[];
  tools?: { name: string; input_schema: Record<string, unknown> }[];
  output_config?: { format?: { type: string } };
}
const request = (i: number) => server.requests[i]!.body as MessagesRequest;

describe("Anthropic Messages API (recorded responses)", () => {
  it("plans from tool_use blocks, in parallel, with usage priced from the table", async () => {
    server.push(recorded("plan-tool-use"));
    const plan = await engine().plan(makeState({ question: "Where was the founder of Acme born?" }), ctx);
    expect(plan.thought).toContain("two hops");
    expect(plan.subQuestions).toEqual(["Who founded Acme?", "Where was the founder of Acme born?"]);
    expect(plan.calls).toEqual([
      { tool: "search", args: { query: "Acme founder", corpus: "wiki", k: 5 } },
      { tool: "search", args: { query: "Acme company history founded", corpus: "handbook" } },
    ]);
    expect(plan.usage?.[0]).toMatchObject({
      role: "planner",
      model: "anthropic:claude-haiku-4-5",
      inputTokens: 1523,
      outputTokens: 142,
    });
    expect(plan.usage?.[0]?.costUsd).toBeCloseTo((1523 * 1 + 142 * 5) / 1e6, 12);

    const sent = server.requests[0]!;
    expect(sent.path).toBe("/v1/messages");
    expect(sent.headers["x-api-key"]).toBe("sk-ant-test");
    expect(request(0).model).toBe("claude-haiku-4-5");
    expect(request(0).tools?.map((t) => t.name)).toEqual(["search", "list_sources", "record_subquestions"]);
    expect(request(0).system?.[0]?.text).toContain("You plan searches");
  });

  it("is done on end_turn with text only", async () => {
    server.push(recorded("plan-end-turn"));
    const plan = await engine().plan(makeState({ evidence: [evidence(1, "x")] }), ctx);
    expect(plan).toMatchObject({ calls: [], done: true });
  });

  it("answers with structured output, counting cached input tokens", async () => {
    server.push(recorded("answer-structured"));
    const state = makeState({
      question: "Where was the founder of Acme born?",
      evidence: [
        evidence(1, "Acme was founded in 1843 by Ada Lovelace."),
        evidence(2, "Ada Lovelace was born in London."),
      ],
    });
    const answer = await engine().answer(state, ctx);
    expect(answer.status).toBe("answered");
    expect(answer.claims.map((c) => c.citations[0]?.n)).toEqual([1, 2]);
    expect(answer.usage?.[0]?.outputTokens).toBe(96);
    expect(answer.usage?.[0]?.inputTokens).toBeGreaterThanOrEqual(1876);
    expect(request(0).output_config?.format?.type).toBe("json_schema");
  });

  it("grades with structured output", async () => {
    server.push(recorded("grade-structured"));
    const state = makeState({
      subQuestions: ["Who founded Acme?", "Where was the founder born?"],
      evidence: [evidence(1, "Acme was founded in 1843 by Ada Lovelace.", 0.9)],
    });
    const grade = await engine().grade(state, ctx);
    expect(grade.subQuestions.map((g) => [g.coverage, g.sufficient])).toEqual([
      [1, true],
      [0.2, false],
    ]);
    expect(grade.subQuestions[1]?.missing).toEqual(["birthplace of Ada Lovelace"]);
  });

  it("retries 529 overloaded and 429 with retry-after, then succeeds", async () => {
    server.push(
      recorded("error-overloaded", 529),
      recorded("error-rate-limit", 429, { "retry-after": "2" }),
      recorded("plan-tool-use"),
    );
    const plan = await engine().plan(makeState(), ctx);
    expect(plan.calls).toHaveLength(2);
    expect(waits).toEqual([100, 2000]);
  });
});
