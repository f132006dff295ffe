/**
 * The LLM engine's next step without a planner call: a router (after its first search) or a grader that is the
 * planner's model proposes the searches for what is missing, and says with [] that nothing more is worth
 * searching, answering then as far as the passages allow.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { askAgent } from "../agent/run-agent.js";
import { createWorld, deterministic } from "../agent/testing/world.js";
import type { AgentState } from "../spec/engine.js";
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

const model = (name: string) =>
  resolveModel({
    spec: `openai-compatible:${name}`,
    baseUrl: `${server.url}/v1`,
    env: {},
    pricing: { input: 1, output: 1 },
  });
const json = (value: unknown) => chatCompletion({ content: JSON.stringify(value) });
const promptText = (i: number) =>
  (server.requests[i]!.body as { messages: { content: string }[] }).messages.map((m) => m.content).join("\n");

const REFUSED = { status: "refused", claims: [], reason: "No passage states a monthly price." };
const insufficient = { index: 1, coverage: 0.1, supporting: [], missing: ["the monthly price"] };

/** A state after the first search of the question (k 6), with one passage. */
function searched(): AgentState {
  return makeState({
    evidence: [evidence(1, "Refunds are accepted within 30 days of purchase.")],
    calls: [
      {
        call: { callId: "c1", tool: "search", args: { query: "How long is the refund window?", k: 6 } },
        step: 1,
        status: "ok",
        passageKeys: ["handbook\u0000doc-1::0"],
      },
    ],
    step: 1,
  });
}

describe("searches proposed by the router", () => {
  it("become the first plan, each as wide as the first search, without another model call", async () => {
    server.push(
      json({ route: "agentic", reason: "One hop left.", reply: null, answer: null, searches: ["fee", " fee ", "x"] }),
    );
    const engine = createLlmEngine({ planner: model("m"), maxRetries: 0 });
    const state = searched();
    expect(await engine.route(state, ctx)).toMatchObject({ route: "agentic" });
    const plan = await engine.plan(state, ctx);
    expect(plan).toMatchObject({ done: false, usage: [] });
    expect(plan.calls).toEqual([
      { tool: "search", args: { query: "fee", k: 6 } },
      { tool: "search", args: { query: "x", k: 6 } },
    ]);
    expect(server.requests).toHaveLength(1);
  });

  it("with [] and a refusal: the refusal is the answer, from the router's one call", async () => {
    server.push(json({ route: "agentic", reason: "Not stated.", reply: null, answer: REFUSED, searches: [] }));
    const decision = await createLlmEngine({ planner: model("m"), maxRetries: 0 }).route(searched(), ctx);
    expect(decision).toMatchObject({ route: "rag", answer: { status: "refused", claims: [] } });
  });

  it("with null (cannot tell) the planner decides", async () => {
    server.push(json({ route: "agentic", reason: "A table.", reply: null, answer: REFUSED, searches: null }));
    const decision = await createLlmEngine({ planner: model("m"), maxRetries: 0 }).route(searched(), ctx);
    expect(decision).toMatchObject({ route: "agentic" });
    expect(decision.answer).toBeUndefined();
  });
});

describe("a grader that is the planner's model", () => {
  it("proposes the next searches: the next plan makes them without a model call", async () => {
    server.push(json({ subQuestions: [insufficient], answer: null, searches: ["monthly price list"] }));
    const engine = createLlmEngine({ planner: model("m"), maxRetries: 0 });
    const state = searched();
    const grade = await engine.grade(state, ctx);
    expect(grade).toMatchObject({ sufficient: false });
    expect(grade.done).toBeUndefined();
    expect(promptText(0)).toContain(
      'Searches so far:\n- step 1: search {"query":"How long is the refund window?","k":6}',
    );
    const plan = await engine.plan(state, ctx);
    expect(plan.calls).toEqual([{ tool: "search", args: { query: "monthly price list", k: 6 } }]);
    expect(server.requests).toHaveLength(1);
  });

  it("with [] is done and refuses in the same call", async () => {
    server.push(json({ subQuestions: [insufficient], answer: REFUSED, searches: [] }));
    const grade = await createLlmEngine({ planner: model("m"), maxRetries: 0 }).grade(searched(), ctx);
    expect(grade).toMatchObject({ sufficient: false, done: true, answer: { status: "refused" } });
  });

  it("is not done, and keeps no draft, when it leaves the next step to the planner (null)", async () => {
    server.push(json({ subQuestions: [insufficient], answer: REFUSED, searches: null }));
    const engine = createLlmEngine({ planner: model("m"), maxRetries: 0 });
    const state = searched();
    const grade = await engine.grade(state, ctx);
    expect(grade.done).toBeUndefined();
    expect(grade.answer).toBeUndefined();
    // No proposal: the plan asks the model.
    server.push(chatCompletion({ content: "THINKING: nothing\nTOOL: none" }));
    await engine.plan(state, ctx).catch(() => undefined);
    expect(server.requests.length).toBeGreaterThan(1);
  });

  it("proposes nothing when the planner is another model", async () => {
    server.push(json({ subQuestions: [insufficient], answer: null }));
    const engine = createLlmEngine({ planner: model("m"), grader: model("g"), maxRetries: 0 });
    const grade = await engine.grade(searched(), ctx);
    expect(grade.done).toBeUndefined();
    expect(promptText(0)).not.toContain("`searches`");
    expect(promptText(0)).not.toContain("Searches so far");
  });

  it("ends an unanswerable question in two model calls: the router's searches, then the grader's refusal", async () => {
    const world = await createWorld();
    server.push(
      json({ route: "agentic", reason: "Not stated.", reply: null, answer: null, searches: ["refund fee amount"] }),
      json({ subQuestions: [insufficient], answer: REFUSED, searches: [] }),
    );
    const answer = await askAgent({
      question: "What fee is charged when a refund times out?",
      engine: createLlmEngine({ planner: model("m"), maxRetries: 0 }),
      ...world,
      ...deterministic(),
    });
    expect(server.requests).toHaveLength(2);
    // The second call is the grader's, after the router's search was made: no planner, no answerer.
    expect(promptText(1)).toContain("You judge whether retrieved passages");
    expect(promptText(1)).toContain('search {"query":"refund fee amount"');
    expect(answer).toMatchObject({ status: "refused", stopReason: "insufficient_evidence" });
    expect(answer.usage.llmCalls).toBe(2);
  });
});
