import { describe, expect, it } from "vitest";
import { STOP_REASONS } from "../spec/answer.js";
import type { TraceEvent } from "../spec/trace.js";
import { formatTrace } from "../trace/format.js";
import { askAgent, runAgent } from "./run-agent.js";
import { createScriptedEngine, type EngineScript } from "./testing/scripted-engine.js";
import { createWorld, deterministic } from "./testing/world.js";

async function run(script: EngineScript, extra: Partial<Parameters<typeof askAgent>[0]> = {}) {
  const world = await createWorld();
  const engine = createScriptedEngine(script);
  const events: TraceEvent[] = [];
  const answer = await askAgent({
    question: "How long until a refund times out?",
    engine,
    ...world,
    ...deterministic(),
    onEvent: (e) => events.push(e),
    ...extra,
  });
  return { answer, events, engine, world, kinds: events.map((e) => e.type) };
}

describe("runAgent", () => {
  it("answers in one pass with mode rag: one search over every readable source, cited", async () => {
    const { answer, events, engine, world } = await run({}, { mode: "rag" });
    expect(answer.status).toBe("answered");
    expect(answer.stopReason).toBe("answered");
    expect(world.retriever.calls).toHaveLength(1);
    expect(world.retriever.calls[0]?.options.sources).toEqual(["api_docs", "handbook"]);
    expect(engine.calls.map((c) => c.method)).toEqual(["answer"]);
    expect(answer.text).toBe("Refunds time out after 30 seconds when the payment gateway does not answer. [1]");
    expect(answer.citations).toEqual([
      {
        n: 1,
        passageId: "refunds.md::0",
        docId: "refunds.md",
        source: "api_docs",
        quote: "Refunds time out after 30 seco",
      },
    ]);
    expect(answer.evidence[0]).toMatchObject({ id: "refunds.md::0", step: 1 });
    expect(events[0]?.type).toBe("run-start");
    expect(events.at(-2)?.type).toBe("answer-end");
    expect(events.at(-1)).toMatchObject({ type: "run-end", stopReason: "answered" });
    expect(answer.stepCount).toBe(1);
    expect(answer.traceId).toBe(answer.runId);
  });

  it("replies without retrieval when the router says none", async () => {
    const { answer, world } = await run(
      { route: () => ({ route: "none", reason: "greeting", reply: "Hello!" }) },
      { question: "hi" },
    );
    expect(answer).toMatchObject({
      status: "answered",
      text: "Hello!",
      citations: [],
      stopReason: "no_retrieval_needed",
    });
    expect(world.retriever.calls).toHaveLength(0);
  });

  it("runs several steps, parallel calls in one step, evidence numbered in order found and de-duplicated", async () => {
    const { answer, events, engine } = await run({
      plan: (state, n) =>
        n === 0
          ? {
              thought: "two sources at once",
              subQuestions: ["refund timeout", "who is on call"],
              calls: [
                { tool: "search", args: { corpus: "api_docs", query: "refunds gateway" }, subQuestion: 0 },
                { tool: "search", args: { corpus: "handbook", query: "on-call engineer payments" }, subQuestion: 1 },
              ],
              done: false,
            }
          : {
              thought: "the document itself",
              subQuestions: state.subQuestions,
              calls: [{ tool: "search_by_source", args: { docId: "refunds.md", query: "refunds" } }],
              done: false,
            },
      grade: (state, n) => ({ subQuestions: [], sufficient: n >= 1, threshold: 0.8 - 0.1 * state.step }),
      answer: () => ({
        status: "answered",
        claims: [
          { text: "Refunds time out after 30 seconds.", citations: [{ n: 1, quote: "time out after 30 seconds" }] },
          {
            text: "Dana Smith is on call.",
            citations: [{ n: 2, quote: "on-call engineer for payments is Dana Smith" }],
          },
        ],
      }),
    });
    expect(answer.stopReason).toBe("evidence_sufficient");
    expect(answer.stepCount).toBe(2);
    expect(answer.usage.toolCalls).toBe(3);
    // The steps themselves, as the AI SDK lists them: the plan, its calls with their arguments, the grade.
    expect(answer.steps.map((s) => [s.step, s.thought, s.toolCalls.map((c) => c.tool), s.grade?.sufficient])).toEqual([
      [1, "two sources at once", ["search", "search"], false],
      [2, "the document itself", ["search_by_source"], true],
    ]);
    expect(answer.steps[0]?.subQuestions).toEqual(["refund timeout", "who is on call"]);
    expect(answer.steps[0]?.toolCalls[1]).toMatchObject({
      tool: "search",
      args: { corpus: "handbook", query: "on-call engineer payments" },
      status: "ok",
    });
    expect(answer.steps[0]?.toolCalls[1]?.passages).toBeGreaterThan(0);
    expect(answer.evidence.map((e) => [e.id, e.step])).toEqual([
      ["refunds.md::0", 1],
      ["oncall.md::0", 1],
    ]);
    const step1 = events.filter((e) => e.step === 1).map((e) => e.type);
    // Both calls start before either ends: they ran in parallel.
    expect(step1.slice(0, 3)).toEqual(["plan", "tool-call-start", "tool-call-start"]);
    expect(answer.text).toBe("Refunds time out after 30 seconds. [1] Dana Smith is on call. [2]");
    expect(engine.calls.filter((c) => c.method === "grade").map((c) => c.step)).toEqual([1, 2]);
  });

  it("forces the answer on the last step and stops with max_steps", async () => {
    let q = 0;
    const { answer, engine } = await run(
      {
        plan: () => ({
          thought: "more",
          subQuestions: [],
          calls: [{ tool: "search", args: { query: `refunds ${q++}` } }],
          done: false,
        }),
        grade: () => ({ subQuestions: [], sufficient: false, threshold: 0.9 }),
      },
      { limits: { maxSteps: 3 } },
    );
    expect(answer.stopReason).toBe("max_steps");
    expect(answer.status).toBe("answered");
    const plans = engine.calls.filter((c) => c.method === "plan");
    expect(plans.map((c) => c.forceAnswer)).toEqual([false, false, true]);
    expect(engine.calls.find((c) => c.method === "answer")?.forceAnswer).toBe(true);
  });

  it("removes a citation whose quote is not in the passage and drops a claim left without one", async () => {
    const { answer } = await run({
      answer: () => ({
        status: "answered",
        claims: [
          {
            text: "Refunds time out after 30 seconds.",
            citations: [
              { n: 1, quote: "after 30 seconds" },
              { n: 1, quote: "after 90 seconds" },
            ],
          },
          { text: "Refunds are instant.", citations: [{ n: 1, quote: "refunds are instant" }] },
          { text: "Made up.", citations: [{ n: 7, quote: "anything" }] },
        ],
      }),
    });
    expect(answer.status).toBe("answered");
    expect(answer.text).toBe("Refunds time out after 30 seconds. [1]");
    expect(answer.citations.map((c) => c.quote)).toEqual(["after 30 seconds"]);
    expect(answer.unsupported).toEqual(["Refunds time out after 30 seconds.", "Refunds are instant.", "Made up."]);
  });

  it("ends a partial answer with the part the sources do not answer, streamed like the claims", async () => {
    const { answer, events } = await run({
      answer: () => ({
        status: "partial",
        claims: [{ text: "Refunds time out after 30 seconds.", citations: [{ n: 1, quote: "after 30 seconds" }] }],
        reason: "Not found in the knowledge base: who may extend the timeout [2].",
      }),
    });
    expect(answer.status).toBe("partial");
    expect(answer.text).toBe(
      "Refunds time out after 30 seconds. [1] Not found in the knowledge base: who may extend the timeout.",
    );
    const streamed = events.flatMap((e) => (e.type === "answer-delta" ? [e.text] : [])).join("");
    expect(streamed).toBe(answer.text);
  });

  it("refuses saying what was searched and what is missing when nothing is found", async () => {
    const { answer } = await run(
      {
        plan: () => ({
          thought: "look",
          subQuestions: [],
          calls: [{ tool: "search", args: { query: "parking garage" } }],
          done: true,
        }),
        grade: () => ({
          subQuestions: [
            {
              index: 0,
              text: "parking",
              coverage: 0,
              confidence: 0,
              missing: ["parking", "garage"],
              sufficient: false,
            },
          ],
          sufficient: false,
          threshold: 0.6,
        }),
      },
      { question: "Where is the parking garage?" },
    );
    expect(answer).toMatchObject({ status: "refused", stopReason: "insufficient_evidence", citations: [] });
    expect(answer.text).toContain("all sources for 'parking garage' (no results)");
    expect(answer.text).toContain("Missing: parking, garage.");
  });

  it("rewrites a follow-up with the history, sums usage, and saves a trace that formats", async () => {
    const { answer, events, world } = await run(
      {
        rewrite: () => "How long until a refund times out at the payment gateway?",
        usage: (role) => ({
          model: "test:model",
          inputTokens: 10,
          outputTokens: role === "answerer" ? 5 : 1,
          costUsd: 0.001,
          ms: 3,
        }),
      },
      { question: "and for refunds?", history: [{ role: "user", content: "tell me about the payment gateway" }] },
    );
    expect(events[0]).toMatchObject({
      type: "run-start",
      standaloneQuestion: "How long until a refund times out at the payment gateway?",
    });
    const llm = events.filter((e) => e.type === "llm-call");
    expect(llm.map((e) => (e.type === "llm-call" ? e.role : ""))).toEqual([
      "rewriter",
      "router",
      "planner",
      "grader",
      "answerer",
    ]);
    expect(answer.usage).toMatchObject({ llmCalls: 5, inputTokens: 50, outputTokens: 9 });
    expect(answer.usage.costUsd).toBeCloseTo(0.005);
    const saved = world.store.runs.get(answer.runId);
    expect(saved?.events.at(-1)).toMatchObject({ type: "run-end" });
    expect(saved?.user).toBe("ann");
    const text = formatTrace(saved!);
    expect(text).toContain("stop reason: evidence_sufficient");
    expect(text).toContain("searching all sources for");
    expect(text).toContain("5 LLM calls");
  });

  it("every event carries the run id and a stop reason from the list", async () => {
    const world = await createWorld();
    const gen = runAgent({ question: "refunds gateway", engine: createScriptedEngine(), ...world });
    const seen: TraceEvent[] = [];
    let next = await gen.next();
    while (!next.done) {
      seen.push(next.value);
      next = await gen.next();
    }
    expect(new Set(seen.map((e) => e.runId))).toEqual(new Set([next.value.runId]));
    expect(STOP_REASONS).toContain(next.value.stopReason);
  });

  it("throws only for invalid options", async () => {
    const world = await createWorld();
    const gen = runAgent({ question: "  ", engine: createScriptedEngine(), ...world });
    await expect(gen.next()).rejects.toThrow(/question/);
    await expect(
      askAgent({ question: "x", engine: createScriptedEngine(), ...world, limits: { maxSteps: 0 } }),
    ).rejects.toThrow(/maxSteps/);
  });
});
