import { describe, expect, it } from "vitest";
import type { AgentState, DraftAnswer } from "../spec/engine.js";
import type { TraceEvent } from "../spec/trace.js";
import { askAgent } from "./run-agent.js";
import { createScriptedEngine, type EngineScript } from "./testing/scripted-engine.js";
import { createWorld, deterministic } from "./testing/world.js";

const QUESTION = "How long until a refund times out?";
const usage = () => ({ model: "scripted", inputTokens: 10, outputTokens: 5, costUsd: 0, ms: 1 });

/** The router's one-call answer: the first passage that mentions refunds, quoted. */
function drafted(state: AgentState): DraftAnswer {
  const n = state.evidence.findIndex((p) => p.text.includes("Refunds time out")) + 1;
  return {
    status: "answered",
    claims: [{ text: "A refund times out after 30 seconds.", citations: [{ n, quote: "after 30 seconds" }] }],
  };
}

async function run(script: EngineScript, extra: Partial<Parameters<typeof askAgent>[0]> = {}) {
  const world = await createWorld();
  const engine = createScriptedEngine({ usage, ...script });
  const events: TraceEvent[] = [];
  const answer = await askAgent({
    question: QUESTION,
    engine,
    ...world,
    ...deterministic(),
    onEvent: (e) => events.push(e),
    ...extra,
  });
  return { answer, events, engine, world, methods: engine.calls.map((c) => c.method) };
}

describe("search-first routing (engine.searchFirst in mode auto)", () => {
  it("answers an easy question in one model call: one search, then the router answers from its passages", async () => {
    const { answer, events, engine, world, methods } = await run({
      searchFirst: true,
      route: (state) => ({ route: "rag", reason: "one passage answers it", answer: drafted(state) }),
    });
    expect(methods).toEqual(["route"]);
    expect(engine.calls[0]?.evidence).toBeGreaterThan(0);
    expect(world.retriever.calls.map((c) => c.query)).toEqual([QUESTION]);
    expect(answer.usage.llmCalls).toBe(1);
    expect(answer).toMatchObject({ status: "answered", stopReason: "answered", stepCount: 1 });
    expect(answer.text).toBe("A refund times out after 30 seconds. [1]");
    expect(answer.citations).toEqual([
      expect.objectContaining({ n: 1, passageId: "refunds.md::0", quote: "after 30 seconds" }),
    ]);
    const kinds = events.map((e) => e.type).filter((k) => k !== "llm-call");
    expect(kinds).toEqual([
      "run-start",
      "plan",
      "tool-call-start",
      "tool-call-end",
      "route",
      "answer-delta",
      "answer-end",
      "run-end",
    ]);
    expect(events.find((e) => e.type === "route")).toMatchObject({ step: 1, route: "rag" });
  });

  it("still checks the router's citations: a quote the passage does not hold is refused", async () => {
    const { answer, methods } = await run({
      searchFirst: true,
      route: () => ({
        route: "rag",
        reason: "sure",
        answer: { status: "answered", claims: [{ text: "Ten minutes.", citations: [{ n: 1, quote: "ten minutes" }] }] },
      }),
    });
    expect(methods).toEqual(["route"]);
    expect(answer.status).toBe("refused");
    expect(answer.citations).toEqual([]);
  });

  it("asks the answerer when the router routes rag without a draft, without searching again", async () => {
    const { engine, world, methods, answer } = await run({
      searchFirst: true,
      route: () => ({ route: "rag", reason: "one search is enough" }),
    });
    expect(methods).toEqual(["route", "answer"]);
    expect(engine.calls[0]?.evidence).toBeGreaterThan(0);
    expect(world.retriever.calls).toHaveLength(1);
    expect(answer.status).toBe("answered");
  });

  it("goes on planning from the first search's passages when the router says agentic", async () => {
    const { engine, world, methods, answer } = await run({
      searchFirst: true,
      route: () => ({ route: "agentic", reason: "needs more" }),
      plan: (state) => ({
        thought: "the on-call engineer too",
        subQuestions: [state.question],
        calls: [{ tool: "search", args: { query: "on-call engineer payments" } }],
        done: true,
      }),
    });
    expect(methods).toEqual(["route", "plan", "grade", "answer"]);
    const plan = engine.calls.find((c) => c.method === "plan");
    expect(plan).toMatchObject({ step: 2 });
    expect(plan?.evidence).toBeGreaterThan(0);
    expect(world.retriever.calls.map((c) => c.query)).toEqual([QUESTION, "on-call engineer payments"]);
    expect(answer.stepCount).toBe(2);
  });

  it("drops the draft when a person rephrases the search before the answer", async () => {
    const { world, methods } = await run(
      {
        searchFirst: true,
        route: (state) => ({ route: "rag", reason: "easy", answer: drafted(state) }),
      },
      {
        checkpoints: { beforeAnswer: true },
        onCheckpoint: async (request) =>
          request.toolCalls === 1 ? { action: "rephrase", query: "API requests per minute" } : { action: "continue" },
      },
    );
    expect(world.retriever.calls.map((c) => c.query)).toEqual([QUESTION, "API requests per minute"]);
    expect(methods).toEqual(["route", "answer"]);
  });

  it("routes before searching when the mode is forced or the engine does not search first", async () => {
    const forced = await run({ searchFirst: true }, { mode: "rag" });
    expect(forced.methods).toEqual(["answer"]);
    expect(forced.world.retriever.calls).toHaveLength(1);
    const plain = await run({ route: () => ({ route: "rag", reason: "one search" }) });
    expect(plain.methods).toEqual(["route", "answer"]);
    expect(plain.engine.calls[0]?.evidence).toBe(0);
  });
});
