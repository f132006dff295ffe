import { describe, expect, it } from "vitest";
import {
  costBudget,
  evidenceSufficient,
  firstStop,
  isStepCount,
  type LoopSnapshot,
  timeout,
  tokenBudget,
  toolCallCount,
} from "./stop-conditions.js";

const base: LoopSnapshot = {
  step: 1,
  toolCalls: 2,
  tokens: 100,
  costUsd: 0.01,
  elapsedMs: 500,
  reserve: { tokens: 50, costUsd: 0.005, ms: 100 },
  newCalls: 1,
  planDone: false,
};

describe("stop conditions", () => {
  it("each predicate fires at its limit and not before", () => {
    expect(isStepCount(2)(base)).toBeUndefined();
    expect(isStepCount(1)(base)).toBe("max_steps");
    expect(toolCallCount(3)(base)).toBeUndefined();
    expect(toolCallCount(2)(base)).toBe("max_tool_calls");
    expect(tokenBudget(150)(base)).toBeUndefined();
    expect(tokenBudget(149)(base)).toBe("token_budget");
    expect(costBudget(0.015)(base)).toBeUndefined();
    expect(costBudget(0.014)(base)).toBe("cost_budget");
    expect(timeout(601)(base)).toBeUndefined();
    expect(timeout(600)(base)).toBe("timeout");
    expect(evidenceSufficient()({ ...base, lastGrade: { subQuestions: [], sufficient: true, threshold: 0.5 } })).toBe(
      "evidence_sufficient",
    );
  });

  it("firstStop takes the first in order", () => {
    const snapshot = { ...base, lastGrade: { subQuestions: [], sufficient: true, threshold: 0.5 } };
    expect(firstStop([evidenceSufficient(), isStepCount(1)], snapshot)).toBe("evidence_sufficient");
    expect(firstStop([isStepCount(1), evidenceSufficient()], snapshot)).toBe("max_steps");
    expect(firstStop([isStepCount(9)], snapshot)).toBeUndefined();
  });
});
