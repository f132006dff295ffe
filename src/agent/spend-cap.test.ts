import { describe, expect, it } from "vitest";
import { askAgent } from "./run-agent.js";
import { spendCap } from "./stop-conditions.js";
import { createScriptedEngine } from "./testing/scripted-engine.js";
import { createWorld, deterministic } from "./testing/world.js";

const PRICED = {
  usage: () => ({ model: "test:model", inputTokens: 10, outputTokens: 2, costUsd: 0.01, ms: 1 }),
};

const snapshot = (costUsd: number, reserve = 0) => ({
  step: 0,
  toolCalls: 0,
  tokens: 0,
  costUsd,
  elapsedMs: 0,
  reserve: { tokens: 0, costUsd: reserve, ms: 0 },
  newCalls: 1,
  planDone: false,
});

describe("spend cap", () => {
  it("spendCap stops at nothing left, and before a call that would pass what is left", () => {
    expect(spendCap(0)(snapshot(0))).toBe("spend_cap");
    expect(spendCap(-1)(snapshot(0))).toBe("spend_cap");
    expect(spendCap(1)(snapshot(0.5, 0.4))).toBeUndefined();
    expect(spendCap(1)(snapshot(0.5, 0.6))).toBe("spend_cap");
  });

  it("a run with nothing left makes no model call and refuses with spend_cap", async () => {
    const world = await createWorld();
    const engine = createScriptedEngine(PRICED);
    const answer = await askAgent({
      question: "refunds gateway",
      engine,
      ...world,
      ...deterministic(),
      spendCapUsd: 0,
    });
    expect(engine.calls).toEqual([]);
    expect(answer).toMatchObject({ status: "refused", stopReason: "spend_cap" });
    expect(answer.reason).toContain("daily spend cap");
    expect(answer.usage.costUsd).toBe(0);
  });

  it("a run stops with spend_cap before a call that would pass the allowance", async () => {
    const world = await createWorld();
    const engine = createScriptedEngine(PRICED);
    const answer = await askAgent({
      question: "refunds gateway",
      engine,
      ...world,
      ...deterministic(),
      spendCapUsd: 0.025,
    });
    expect(answer.stopReason).toBe("spend_cap");
    expect(answer.usage.costUsd).toBeLessThanOrEqual(0.025);
    expect(engine.calls.length).toBeGreaterThan(0);
  });

  it("an allowance larger than the run costs changes nothing", async () => {
    const world = await createWorld();
    const answer = await askAgent({
      question: "refunds gateway",
      engine: createScriptedEngine(PRICED),
      ...world,
      ...deterministic(),
      spendCapUsd: 10,
    });
    expect(answer.stopReason).not.toBe("spend_cap");
    expect(answer.status).toBe("answered");
  });
});
