import { describe, expect, it } from "vitest";
import { PRESETS } from "../../index.js";
import { DEFAULT_SERVE_CONFIG } from "../config.js";
import { effectiveLimits } from "./budgets.js";

const maxima = DEFAULT_SERVE_CONFIG.maxima;

describe("effectiveLimits", () => {
  it("takes what a request asks for when it is lower than the server's maxima", () => {
    expect(
      effectiveLimits({ maxima, requested: { maxSteps: 2, maxToolCalls: 1, maxCostUsd: 0.001, timeoutMs: 500 } }),
    ).toMatchObject({ maxSteps: 2, maxToolCalls: 1, maxCostUsd: 0.001, timeoutMs: 500, maxTokens: maxima.maxTokens });
  });

  it("never goes above the server's maxima, whatever the request or the preset asks", () => {
    const small = { maxSteps: 1, maxToolCalls: 1, maxTokens: 10, maxCostUsd: 0.01, timeoutMs: 100 };
    expect(
      effectiveLimits({
        maxima: small,
        requested: { maxSteps: 99, maxToolCalls: 99, maxTokens: 1e9, maxCostUsd: 100, timeoutMs: 1e9 },
      }),
    ).toEqual(small);
    expect(effectiveLimits({ maxima: small, preset: "thorough" })).toEqual(small);
  });

  it("without a request, a run gets the preset's steps and tool calls within the maxima", () => {
    const limits = effectiveLimits({ maxima, preset: "conservative" });
    expect(limits.maxSteps).toBe(Math.min(PRESETS.conservative.limits.maxSteps, maxima.maxSteps));
    expect(limits.maxToolCalls).toBe(Math.min(PRESETS.conservative.limits.maxToolCalls, maxima.maxToolCalls));
  });
});
