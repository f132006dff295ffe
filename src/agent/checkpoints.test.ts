import { describe, expect, it } from "vitest";
import type { CheckpointDecision, TraceEvent } from "../spec/trace.js";
import type { CheckpointRequest } from "./options.js";
import { askAgent } from "./run-agent.js";
import { createScriptedEngine, type EngineScript } from "./testing/scripted-engine.js";
import { createWorld, deterministic } from "./testing/world.js";

const keepSearching: EngineScript = {
  plan: (_s, n) => ({
    thought: "go",
    subQuestions: [],
    calls: [{ tool: "search", args: { query: `refunds gateway ${n}` } }],
    done: false,
  }),
  grade: () => ({ subQuestions: [], sufficient: false, threshold: 1 }),
};

async function run(
  decide: (r: CheckpointRequest) => CheckpointDecision,
  extra: Partial<Parameters<typeof askAgent>[0]>,
  script = keepSearching,
) {
  const world = await createWorld();
  const engine = createScriptedEngine(script);
  const asked: CheckpointRequest[] = [];
  const events: TraceEvent[] = [];
  const answer = await askAgent({
    question: "How long until a refund times out?",
    engine,
    ...world,
    ...deterministic(),
    mode: "agentic",
    onCheckpoint: async (r) => {
      asked.push(r);
      return decide(r);
    },
    onEvent: (e) => events.push(e),
    ...extra,
  });
  return { answer, asked, engine, events, world };
}

describe("checkpoints", () => {
  it("answer_now after searches answers from the evidence so far", async () => {
    const { answer, asked, engine, events } = await run(() => ({ action: "answer_now" }), {
      checkpoints: { afterSearches: 1 },
    });
    expect(asked.map((r) => r.kind)).toEqual(["after_searches"]);
    expect(engine.calls.filter((c) => c.method === "plan")).toHaveLength(1);
    expect(answer).toMatchObject({ status: "answered", stopReason: "answered" });
    expect(events.find((e) => e.type === "checkpoint")).toMatchObject({
      checkpoint: "after_searches",
      decision: "answer_now",
    });
  });

  it("stop refuses with aborted", async () => {
    const { answer, world } = await run(() => ({ action: "stop" }), { checkpoints: { afterSearches: 2 } });
    expect(world.retriever.calls).toHaveLength(2);
    expect(answer).toMatchObject({ status: "refused", stopReason: "aborted", citations: [] });
  });

  it("rephrase hands the query to the next plan", async () => {
    const { engine } = await run(
      (r) => (r.step === 1 ? { action: "rephrase", query: "gateway refunds seconds" } : { action: "continue" }),
      {
        checkpoints: { afterSearches: 1 },
        limits: { maxSteps: 2 },
      },
    );
    const plans = engine.calls.filter((c) => c.method === "plan");
    expect(plans[1]?.rephrase).toBe("gateway refunds seconds");
  });

  it("no_results and before_answer are asked when configured; a rephrase before answering searches again", async () => {
    const script: EngineScript = {
      plan: (state) => ({
        thought: "go",
        subQuestions: [],
        calls: [{ tool: "search", args: { query: state.rephrase ?? "parking garage" } }],
        done: true,
      }),
    };
    let rephrased = false;
    const { answer, asked } = await run(
      (r) => {
        if (r.kind === "before_answer" && !rephrased) {
          rephrased = true;
          return { action: "rephrase", query: "refunds gateway" };
        }
        return { action: "continue" };
      },
      { checkpoints: { onNoResults: true, beforeAnswer: true } },
      script,
    );
    expect(asked.map((r) => r.kind)).toEqual(["no_results", "before_answer", "before_answer"]);
    expect(answer.status).toBe("answered");
    expect(answer.citations[0]?.docId).toBe("refunds.md");
  });

  it("a handler that throws counts as continue", async () => {
    const { answer, events } = await run(
      () => {
        throw new Error("ui gone");
      },
      { checkpoints: { afterSearches: 1 }, limits: { maxSteps: 2 } },
    );
    expect(events.filter((e) => e.type === "error")).toHaveLength(2);
    expect(answer.stopReason).toBe("max_steps");
  });
});
