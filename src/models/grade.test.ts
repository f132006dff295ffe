import { afterEach, beforeEach, describe, expect, it } from "vitest";
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

const ANSWER = {
  status: "answered",
  claims: [{ text: "Refunds are accepted for 30 days.", citations: [{ n: 1, quote: "within 30 days" }] }],
  reason: null,
};
const state = () =>
  makeState({ evidence: [evidence(1, "Refunds are accepted within 30 days of purchase.", 0.9)], step: 1 });

describe("gradeEvidence with one model for grading and answering", () => {
  it("answers in the grading call when the grades are sufficient", async () => {
    server.push(json({ subQuestions: [{ index: 1, coverage: 1, supporting: [1], missing: [] }], answer: ANSWER }));
    const grade = await createLlmEngine({ planner: model("m"), maxRetries: 0 }).grade(state(), ctx);
    expect(grade.sufficient).toBe(true);
    expect(grade.answer).toMatchObject({ status: "answered", claims: ANSWER.claims });
    expect(grade.usage).toHaveLength(1);
    expect(promptText(0)).toContain("also answer the original question in `answer`");
  });

  it("drops the draft when the engine's threshold finds the grades insufficient", async () => {
    server.push(
      json({ subQuestions: [{ index: 1, coverage: 0.5, supporting: [1], missing: ["fee"] }], answer: ANSWER }),
    );
    const grade = await createLlmEngine({ planner: model("m"), maxRetries: 0 }).grade(state(), ctx);
    expect(grade.sufficient).toBe(false);
    expect(grade.answer).toBeUndefined();
  });

  it("accepts a reply that leaves the answer out, without a retry", async () => {
    server.push(json({ subQuestions: [{ index: 1, coverage: 1, supporting: [1], missing: [] }] }));
    const grade = await createLlmEngine({ planner: model("m"), maxRetries: 0 }).grade(state(), ctx);
    expect(grade.sufficient).toBe(true);
    expect(grade.answer).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it("only grades when the answerer is another model", async () => {
    server.push(json({ subQuestions: [{ index: 1, coverage: 1, supporting: [1], missing: [] }], answer: ANSWER }));
    const engine = createLlmEngine({ planner: model("m"), answerer: model("big"), maxRetries: 0 });
    const grade = await engine.grade(state(), ctx);
    expect(grade.sufficient).toBe(true);
    expect(grade.answer).toBeUndefined();
    expect(promptText(0)).not.toContain("`answer`");
    expect(engine.searchFirst).toBe(false);
  });
});
