import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chatCompletion, type ScriptedServer, startScriptedServer } from "./__fixtures__/scripted-openai-server.js";
import { makeState } from "./__fixtures__/state.js";
import { ModelOutputError } from "./errors.js";
import { createLlmEngine } from "./llm-engine.js";
import { resolveModel } from "./resolve.js";

let server: ScriptedServer;
const ctx = { signal: new AbortController().signal };

beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

/** A model without tool calling: the engine plans through the text protocol. */
function engine() {
  const planner = resolveModel({
    spec: "openai-compatible:small-model",
    baseUrl: `${server.url}/v1`,
    env: {},
    supportsTools: false,
  });
  return createLlmEngine({ planner, maxRetries: 0 });
}

const reply = (content: string) => chatCompletion({ content });

interface ChatRequest {
  messages: { role: string; content: string }[];
  tools?: unknown[];
}
const request = (i: number) => server.requests[i]!.body as ChatRequest;

describe("text-protocol planning over HTTP", () => {
  it("parses a well-formed reply into calls, describing the tools in the prompt instead of sending them", async () => {
    server.push(
      reply(
        'THINKING: The handbook holds policies.\nSUBQUESTIONS: ["What is the return period?"]\nTOOL: search\nPARAMS: {"query": "refund window", "corpus": "handbook"}\nTOOL: search\nPARAMS: {"query": "returns policy", "corpus": "wiki"}',
      ),
    );
    const plan = await engine().plan(makeState(), ctx);
    expect(plan).toMatchObject({
      thought: "The handbook holds policies.",
      subQuestions: ["What is the return period?"],
      calls: [
        { tool: "search", args: { query: "refund window", corpus: "handbook" } },
        { tool: "search", args: { query: "returns policy", corpus: "wiki" } },
      ],
      done: false,
    });
    expect(request(0).tools).toBeUndefined();
    const system = request(0).messages[0]!.content;
    expect(system).toContain("- search: Search a source for passages.");
    expect(system).toContain("PARAMS: <JSON object of arguments");
  });

  it("repairs PARAMS JSON", async () => {
    server.push(reply("THINKING: look\nTOOL: search\nPARAMS: {query: 'refund window', corpus: 'handbook',}"));
    const plan = await engine().plan(makeState(), ctx);
    expect(plan.calls).toEqual([{ tool: "search", args: { query: "refund window", corpus: "handbook" } }]);
    expect(plan.usage).toHaveLength(1);
  });

  it("is done on ANSWER", async () => {
    server.push(reply("THINKING: The passages answer it.\nANSWER"));
    expect(await engine().plan(makeState(), ctx)).toMatchObject({ calls: [], done: true });
  });

  it("retries once after garbage, showing the parse error, and succeeds", async () => {
    server.push(
      reply("The refund window is probably 30 days."),
      reply('TOOL: search\nPARAMS: {"query": "refund", "corpus": "handbook"}'),
    );
    const plan = await engine().plan(makeState(), ctx);
    expect(plan.calls).toHaveLength(1);
    expect(plan.usage).toHaveLength(2);
    const retry = request(1).messages;
    expect(retry.at(-2)).toMatchObject({ role: "assistant", content: "The refund window is probably 30 days." });
    expect(retry.at(-1)?.content).toContain("the reply has no TOOL line and no ANSWER line");
    expect(retry.at(-1)?.content).toContain("original question: How long is the refund window?");
  });

  it("throws ModelOutputError after garbage twice", async () => {
    server.push(reply("no idea"), reply("TOOL: search\nPARAMS: }}}{{{"));
    const error = await engine()
      .plan(makeState(), ctx)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelOutputError);
    expect(error).toMatchObject({ name: "ModelOutputError", category: "upstream" });
    expect((error as ModelOutputError).message).toContain("PARAMS of search is not valid JSON");
    expect((error as ModelOutputError).usage).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it("is used for tool-capable models when textProtocol is set", async () => {
    const planner = resolveModel({ spec: "openai-compatible:big", baseUrl: `${server.url}/v1`, env: {} });
    server.push(reply("THINKING: x\nANSWER"));
    await createLlmEngine({ planner, textProtocol: true }).plan(makeState(), ctx);
    expect(request(0).tools).toBeUndefined();
  });
});

describe("falling back from native tool calling", () => {
  it("switches a local model to the text protocol when its server rejects tools", async () => {
    const planner = resolveModel({ spec: "openai-compatible:gemma", baseUrl: `${server.url}/v1`, env: {} });
    const e = createLlmEngine({ planner, maxRetries: 0 });
    server.push(
      { status: 400, json: { error: { message: "registry.ollama.ai/library/gemma does not support tools" } } },
      reply('TOOL: search\nPARAMS: {"query": "refund", "corpus": "handbook"}'),
      reply("THINKING: enough\nANSWER"),
    );
    const first = await e.plan(makeState(), ctx);
    expect(first.calls).toEqual([{ tool: "search", args: { query: "refund", corpus: "handbook" } }]);
    expect(request(0).tools).toBeDefined();
    expect(request(1).tools).toBeUndefined();
    // Sticky: the next step goes straight to the text protocol.
    expect((await e.plan(makeState({ step: 2 }), ctx)).done).toBe(true);
    expect(server.requests).toHaveLength(3);
  });

  it("does not hide a 400 from a hosted provider", async () => {
    const planner = resolveModel({
      spec: "openai:gpt-4o-mini",
      baseUrl: `${server.url}/v1`,
      env: { OPENAI_API_KEY: "k" },
    });
    server.push({
      status: 400,
      json: { error: { message: "Invalid schema for function 'search'", type: "invalid_request_error" } },
    });
    const error = await createLlmEngine({ planner, maxRetries: 0 })
      .plan(makeState(), ctx)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "UpstreamError", status: 400 });
    expect(server.requests).toHaveLength(1);
  });
});
