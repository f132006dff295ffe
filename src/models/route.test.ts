import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { askAgent } from "../agent/run-agent.js";
import { createWorld, deterministic } from "../agent/testing/world.js";
import { chatCompletion, type ScriptedServer, startScriptedServer } from "./__fixtures__/scripted-openai-server.js";
import { evidence, makeState } from "./__fixtures__/state.js";
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

function engine(options: { searchFirst?: boolean } = {}) {
  const planner = resolveModel({
    spec: "openai-compatible:router-m",
    baseUrl: `${server.url}/v1`,
    env: {},
    pricing: { input: 1, output: 1 },
  });
  return createLlmEngine({ planner, maxRetries: 0, ...options });
}

const json = (value: unknown) => chatCompletion({ content: JSON.stringify(value) });
const promptText = (i: number) =>
  (server.requests[i]!.body as { messages: { content: string }[] }).messages.map((m) => m.content).join("\n");

const ANSWER = {
  status: "answered",
  claims: [{ text: "Refunds are accepted for 30 days.", citations: [{ n: 1, quote: "within 30 days of purchase" }] }],
  reason: null,
};

describe("routeQuestion after a first search", () => {
  const withPassages = () =>
    makeState({ evidence: [evidence(1, "Refunds are accepted within 30 days of purchase.")], step: 1 });

  it("routes rag and answers from the passages in the same call", async () => {
    server.push(json({ route: "rag", reason: "Passage 1 states it.", reply: null, answer: ANSWER }));
    const decision = await engine().route(withPassages(), ctx);
    expect(decision).toMatchObject({
      route: "rag",
      reason: "Passage 1 states it.",
      answer: { status: "answered", claims: ANSWER.claims },
    });
    expect(decision.usage).toHaveLength(1);
    expect(decision.usage?.[0]).toMatchObject({ role: "router" });
    const prompt = promptText(0);
    expect(prompt).toContain(
      '<<<passage 1 id="doc-1::0" source="handbook">>>\nRefunds are accepted within 30 days of purchase.\n<<<end passage 1>>>',
    );
    expect(prompt).toContain("Original question: How long is the refund window?");
  });

  it("searches more when the router's draft is only partial", async () => {
    server.push(
      json({
        route: "rag",
        reason: "Mostly there.",
        reply: null,
        answer: { ...ANSWER, status: "partial", reason: "the fee is missing" },
      }),
    );
    const decision = await engine().route(withPassages(), ctx);
    expect(decision.route).toBe("agentic");
    expect(decision.answer).toBeUndefined();
  });

  it("routes agentic without an answer, and none with its reply", async () => {
    server.push(
      json({ route: "agentic", reason: "Two hops.", reply: null, answer: null }),
      json({ route: "none", reason: "A greeting.", reply: "Hello!", answer: null }),
    );
    expect(await engine().route(withPassages(), ctx)).toMatchObject({ route: "agentic", reason: "Two hops." });
    expect(await engine().route(withPassages(), ctx)).toMatchObject({ route: "none", reply: "Hello!" });
  });

  it("routes before searching with the plain router prompt when there are no passages yet", async () => {
    server.push(json({ route: "rag", reason: "A policy fact.", reply: null }));
    expect((await engine().route(makeState(), ctx)).route).toBe("rag");
    expect(promptText(0)).not.toContain("Passages:");
  });

  it("searches first by default; searchFirst false routes first", () => {
    expect(engine().searchFirst).toBe(true);
    expect(engine({ searchFirst: false }).searchFirst).toBe(false);
  });

  it("answers an easy question end to end with one model request", async () => {
    const world = await createWorld();
    server.push(
      json({
        route: "rag",
        reason: "Passage 1 states the timeout.",
        reply: null,
        answer: {
          status: "answered",
          claims: [{ text: "A refund times out after 30 seconds.", citations: [{ n: 1, quote: "after 30 seconds" }] }],
          reason: null,
        },
      }),
    );
    const answer = await askAgent({
      question: "When does a refund time out?",
      engine: engine(),
      ...world,
      ...deterministic(),
    });
    expect(server.requests).toHaveLength(1);
    expect(answer).toMatchObject({ status: "answered", stopReason: "answered" });
    expect(answer.usage.llmCalls).toBe(1);
    expect(answer.text).toBe("A refund times out after 30 seconds. [1]");
    expect(answer.citations[0]).toMatchObject({ passageId: "refunds.md::0" });
  });
});
