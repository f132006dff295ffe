import { describe, expect, it } from "vitest";
import type { TraceEvent } from "../spec/trace.js";
import { createFakeRetriever } from "../tools/testing/fake-retriever.js";
import { askAgent } from "./run-agent.js";
import { createScriptedEngine, type EngineScript } from "./testing/scripted-engine.js";
import { createWorld, deterministic } from "./testing/world.js";

type Extra = Partial<Parameters<typeof askAgent>[0]>;

async function run(script: EngineScript, extra: Extra = {}) {
  const world = await createWorld();
  const engine = createScriptedEngine(script);
  const events: TraceEvent[] = [];
  const answer = await askAgent({
    question: "How long until a refund times out?",
    engine,
    ...world,
    ...deterministic(),
    mode: "agentic",
    onEvent: (e) => events.push(e),
    ...extra,
  });
  const errors = events.filter((e) => e.type === "error");
  return { answer, events, engine, world, errors };
}

/** A planner that asks something new each time. */
const freshQueries = (): EngineScript["plan"] => {
  let n = 0;
  return () => ({
    thought: "again",
    subQuestions: [],
    calls: [{ tool: "search", args: { query: `refunds gateway ${n++}` } }],
    done: false,
  });
};

const usage = (tokens: number, costUsd: number) => () => ({
  model: "test:m",
  inputTokens: tokens,
  outputTokens: 0,
  costUsd,
  ms: 1,
});

describe("adversarial runs end within budgets with the right stop reason", () => {
  it("a grader that always says insufficient: max_steps, answered from what was found", async () => {
    const { answer, engine } = await run(
      { plan: freshQueries(), grade: () => ({ subQuestions: [], sufficient: false, threshold: 1 }) },
      { limits: { maxSteps: 4 } },
    );
    expect(answer.stopReason).toBe("max_steps");
    expect(answer.stepCount).toBe(4);
    expect(engine.calls.filter((c) => c.method === "plan")).toHaveLength(4);
    expect(answer.status).toBe("answered");
  });

  it("a retriever that always times out: timeouts reported, refusal at max_steps", async () => {
    const retriever = createFakeRetriever({
      search: (_q, o) =>
        new Promise((_, reject) => o.signal?.addEventListener("abort", () => reject(o.signal?.reason))),
    });
    const { answer, events } = await run(
      { plan: freshQueries(), grade: () => ({ subQuestions: [], sufficient: false, threshold: 1 }) },
      { retriever, limits: { maxSteps: 3, toolTimeoutMs: 10 } },
    );
    const ends = events.filter((e) => e.type === "tool-call-end");
    expect(ends.map((e) => e.type === "tool-call-end" && e.status)).toEqual(["timeout", "timeout", "timeout"]);
    expect(answer).toMatchObject({ status: "refused", stopReason: "max_steps", citations: [] });
    expect(answer.text).toContain("(timeout)");
  });

  it("a model that always calls the same tool: no_progress after the repeat", async () => {
    const { answer, world, events } = await run({
      plan: () => ({
        thought: "same",
        subQuestions: [],
        calls: [{ tool: "search", args: { query: "Refunds  gateway" } }],
        done: false,
      }),
      grade: () => ({ subQuestions: [], sufficient: false, threshold: 1 }),
    });
    expect(answer.stopReason).toBe("no_progress");
    expect(world.retriever.calls).toHaveLength(1);
    expect(answer.stepCount).toBe(2);
    const plan2 = events.find((e) => e.type === "plan" && e.step === 2);
    expect(plan2).toMatchObject({ calls: [] });
    expect(answer.status).toBe("answered");
  });

  it("a planner that throws: retried once, then fallback to one retrieval pass", async () => {
    const { answer, engine, errors, world } = await run({
      plan: () => {
        throw new Error("model returned garbage");
      },
    });
    expect(engine.calls.filter((c) => c.method === "plan")).toHaveLength(2);
    expect(errors.map((e) => e.type === "error" && e.message)).toEqual([
      "the planner failed; retrying once: model returned garbage",
      "the planner failed twice; answering from one retrieval pass: model returned garbage",
    ]);
    expect(world.retriever.calls).toHaveLength(1);
    expect(answer).toMatchObject({ status: "answered", stopReason: "fallback" });
  });

  it("a token budget: stops before passing it and still answers", async () => {
    const { answer } = await run(
      {
        plan: freshQueries(),
        grade: () => ({ subQuestions: [], sufficient: false, threshold: 1 }),
        usage: usage(100, 0),
      },
      { limits: { maxTokens: 450, maxSteps: 10 } },
    );
    expect(answer.stopReason).toBe("token_budget");
    expect(answer.usage.inputTokens + answer.usage.outputTokens).toBeLessThanOrEqual(450);
    expect(answer.status).toBe("answered");
  });

  it("a cost budget: stops before passing it", async () => {
    const { answer } = await run(
      {
        plan: freshQueries(),
        grade: () => ({ subQuestions: [], sufficient: false, threshold: 1 }),
        usage: usage(1, 0.01),
      },
      { limits: { maxCostUsd: 0.035, maxSteps: 10 } },
    );
    expect(answer.stopReason).toBe("cost_budget");
    expect(answer.usage.costUsd).toBeLessThanOrEqual(0.035);
  });

  it("a tool-call budget: the plan is truncated, never exceeded", async () => {
    const { answer, world, events } = await run(
      {
        plan: () => ({
          thought: "many",
          subQuestions: [],
          calls: ["refunds", "gateway", "payment", "answer", "seconds"].map((query) => ({
            tool: "search",
            args: { query },
          })),
          done: false,
        }),
        grade: () => ({ subQuestions: [], sufficient: false, threshold: 1 }),
      },
      { limits: { maxToolCalls: 3 } },
    );
    expect(world.retriever.calls).toHaveLength(3);
    expect(answer.stopReason).toBe("max_tool_calls");
    expect(events.find((e) => e.type === "plan")).toMatchObject({
      thought: expect.stringContaining("dropped 2 call(s)"),
    });
  });

  it("a clock that runs out: timeout, no engine call after the time budget", async () => {
    const { answer, engine } = await run(
      { plan: freshQueries(), grade: () => ({ subQuestions: [], sufficient: false, threshold: 1 }) },
      { ...deterministic(1000), limits: { timeoutMs: 12_000, maxSteps: 50 } },
    );
    expect(answer.stopReason).toBe("timeout");
    expect(engine.calls.filter((c) => c.method === "plan").length).toBeLessThan(50);
  });

  it("an engine that never returns: the run's own deadline ends it", async () => {
    const { answer } = await run({ plan: () => new Promise(() => {}) }, { limits: { timeoutMs: 30 } });
    expect(answer).toMatchObject({ status: "refused", stopReason: "timeout" });
  });

  it("an abort signal: stops the hanging planner, refuses with aborted", async () => {
    const controller = new AbortController();
    const { answer, events } = await run(
      {
        plan: () => {
          controller.abort();
          return new Promise(() => {});
        },
      },
      { signal: controller.signal },
    );
    expect(answer).toMatchObject({ status: "refused", stopReason: "aborted" });
    expect(events.at(-1)).toMatchObject({ type: "run-end", stopReason: "aborted" });
  });

  it("an already aborted signal: no engine or tool call at all", async () => {
    const controller = new AbortController();
    controller.abort();
    const { answer, engine, world } = await run({}, { signal: controller.signal, mode: "auto" });
    expect(answer.stopReason).toBe("aborted");
    expect(engine.calls).toHaveLength(0);
    expect(world.retriever.calls).toHaveLength(0);
  });

  it("a grader and an answerer that throw: error events, then a refusal", async () => {
    const { answer, errors } = await run({
      plan: (_s, n) => ({
        thought: "x",
        subQuestions: [],
        calls: [{ tool: "search", args: { query: "refunds" } }],
        done: n > 0,
      }),
      grade: () => {
        throw new Error("grader down");
      },
      answer: () => {
        throw new Error("answerer down");
      },
    });
    expect(errors.map((e) => e.type === "error" && e.message.split(":")[0])).toEqual([
      "the grader failed; going on ungraded",
      "the answerer failed",
    ]);
    expect(answer).toMatchObject({ status: "refused", stopReason: "insufficient_evidence" });
    expect(answer.reason).toContain("answerer down");
  });

  it("a store that cannot save: the answer still comes, with an error event before run-end", async () => {
    const world = await createWorld();
    world.store.saveRun = () => Promise.reject(new Error("read-only file"));
    const events: TraceEvent[] = [];
    const answer = await askAgent({
      question: "refunds gateway",
      engine: createScriptedEngine(),
      ...world,
      onEvent: (e) => events.push(e),
    });
    expect(answer.status).toBe("answered");
    expect(events.slice(-2).map((e) => e.type)).toEqual(["error", "run-end"]);
  });
});
