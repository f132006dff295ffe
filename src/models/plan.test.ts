import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chatCompletion, type ScriptedServer, startScriptedServer } from "./__fixtures__/scripted-openai-server.js";
import { evidence, makeState } from "./__fixtures__/state.js";
import { ModelOutputError } from "./errors.js";
import { createLlmEngine } from "./llm-engine.js";
import { resolveModel } from "./resolve.js";

let server: ScriptedServer;
const signal = new AbortController().signal;

beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

function engine(options: { textProtocol?: boolean } = {}) {
  const planner = resolveModel({
    spec: "openai-compatible:test-model",
    baseUrl: `${server.url}/v1`,
    env: {},
    pricing: { input: 1, output: 2 },
  });
  return createLlmEngine({ planner, maxRetries: 0, timeoutMs: 10_000, ...options });
}

interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  tools?: { type: string; function: { name: string; description: string; parameters: Record<string, unknown> } }[];
}

describe("native tool-call planning over HTTP", () => {
  it("turns a tool call into a plan, offering the state's tools as JSON Schema", async () => {
    server.push(
      chatCompletion({
        content: "Looking in the handbook.",
        toolCalls: [{ name: "search", arguments: '{"query":"refund window","corpus":"handbook"}' }],
        usage: { prompt_tokens: 1000, completion_tokens: 50 },
      }),
    );
    const plan = await engine().plan(makeState(), { signal });
    expect(plan.calls).toEqual([{ tool: "search", args: { query: "refund window", corpus: "handbook" } }]);
    expect(plan.done).toBe(false);
    expect(plan.thought).toBe("Looking in the handbook.");
    expect(plan.usage).toHaveLength(1);
    expect(plan.usage?.[0]).toMatchObject({
      role: "planner",
      model: "openai-compatible:test-model",
      inputTokens: 1000,
      outputTokens: 50,
    });
    expect(plan.usage?.[0]?.costUsd).toBeCloseTo((1000 * 1 + 50 * 2) / 1e6, 12);

    const request = server.requests[0]!.body as ChatRequest;
    expect(server.requests[0]!.path).toBe("/v1/chat/completions");
    expect(request.model).toBe("test-model");
    const search = request.tools?.find((t) => t.function.name === "search");
    expect(search?.function.parameters).toMatchObject({ required: ["query", "corpus"] });
    expect(request.tools?.map((t) => t.function.name)).toEqual(["search", "list_sources", "record_subquestions"]);
    expect(request.messages.some((m) => m.content.includes("Original question: How long is the refund window?"))).toBe(
      true,
    );
  });

  it("returns parallel tool calls from one message, and records sub-questions", async () => {
    server.push(
      chatCompletion({
        toolCalls: [
          {
            name: "record_subquestions",
            arguments: '{"subQuestions":["Who founded Acme?","Where was the founder born?"]}',
          },
          { name: "search", arguments: '{"query":"Acme founder","corpus":"wiki"}' },
          { name: "search", arguments: '{"query":"Acme founding","corpus":"handbook"}' },
        ],
      }),
    );
    const plan = await engine().plan(makeState({ question: "Where was the founder of Acme born?" }), { signal });
    expect(plan.subQuestions).toEqual(["Who founded Acme?", "Where was the founder born?"]);
    expect(plan.calls.map((c) => c.args.corpus)).toEqual(["wiki", "handbook"]);
  });

  it("is done when the model replies in text without tool calls", async () => {
    server.push(chatCompletion({ content: "The passages already answer it." }));
    const plan = await engine().plan(makeState({ evidence: [evidence(1, "Refunds within 30 days.")], step: 2 }), {
      signal,
    });
    expect(plan).toMatchObject({ calls: [], done: true, thought: "The passages already answer it." });
    const body = server.requests[0]!.body as ChatRequest;
    // Not offered again once searching has started (sub-questions are recorded on the first step only).
    expect(body.tools?.map((t) => t.function.name)).toEqual(["search", "list_sources"]);
  });

  it("repairs almost-JSON tool arguments", async () => {
    server.push(
      chatCompletion({ toolCalls: [{ name: "search", arguments: "{'query': 'refunds', 'corpus': 'handbook'," }] }),
    );
    const plan = await engine().plan(makeState(), { signal });
    expect(plan.calls).toEqual([{ tool: "search", args: { query: "refunds", corpus: "handbook" } }]);
  });

  it("passes unknown tool names through for the loop to report", async () => {
    server.push(chatCompletion({ toolCalls: [{ name: "web_search", arguments: '{"q":"x"}' }] }));
    const plan = await engine().plan(makeState(), { signal });
    expect(plan.calls).toEqual([{ tool: "web_search", args: { q: "x" } }]);
  });

  it("drops an unusable call beside usable ones and says so in the thought", async () => {
    server.push(
      chatCompletion({
        toolCalls: [
          { name: "search", arguments: '{"query":"refunds","corpus":"handbook"}' },
          { name: "search", arguments: '"just a string"' },
        ],
      }),
    );
    const plan = await engine().plan(makeState(), { signal });
    expect(plan.calls).toHaveLength(1);
    expect(plan.thought).toContain("Dropped unusable calls: search: the arguments are not a JSON object");
  });

  it("asks again once when no call is usable, then succeeds", async () => {
    server.push(
      chatCompletion({ toolCalls: [{ name: "search", arguments: "[[[" }] }),
      chatCompletion({ toolCalls: [{ name: "search", arguments: '{"query":"refunds","corpus":"handbook"}' }] }),
    );
    const plan = await engine().plan(makeState(), { signal });
    expect(plan.calls).toHaveLength(1);
    expect(plan.usage).toHaveLength(2);
    const retry = server.requests[1]!.body as ChatRequest;
    expect(retry.messages.at(-1)?.content).toContain("these tool calls could not be used: search:");
  });

  it("gives the loop a readable ModelOutputError when arguments stay unusable", async () => {
    const bad = chatCompletion({ toolCalls: [{ name: "search", arguments: "[[[" }] });
    server.push(bad, bad);
    const error = await engine()
      .plan(makeState(), { signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelOutputError);
    expect(error).toMatchObject({ name: "ModelOutputError", category: "upstream" });
    expect((error as ModelOutputError).message).toContain("made no usable tool call after a retry");
    expect((error as ModelOutputError).usage).toHaveLength(2);
  });

  it("does not call the model when the loop forces an answer", async () => {
    const plan = await engine().plan(makeState({ forceAnswer: true }), { signal });
    expect(plan).toMatchObject({ calls: [], done: true, usage: [] });
    expect(server.requests).toHaveLength(0);
  });
});
