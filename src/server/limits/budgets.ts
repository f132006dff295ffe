import { DEFAULT_PRESET, PRESETS, type Preset } from "../../index.js";
import type { RunMaxima } from "../config.js";

export type RequestBudgets = Partial<RunMaxima>;

/**
 * The limits of a run: what the request asks for, else the preset's own (steps, tool calls) or the server's
 * maximum, and never more than the server's maximum. A request can lower a budget, never raise one.
 */
export function effectiveLimits(options: {
  requested?: RequestBudgets;
  maxima: RunMaxima;
  preset?: Preset;
}): RunMaxima {
  const { maxima } = options;
  const asked = options.requested ?? {};
  const preset = PRESETS[options.preset ?? DEFAULT_PRESET].limits;
  const pick = (name: keyof RunMaxima, fallback: number) => Math.min(asked[name] ?? fallback, maxima[name]);
  return {
    maxSteps: pick("maxSteps", preset.maxSteps),
    maxToolCalls: pick("maxToolCalls", preset.maxToolCalls),
    maxTokens: pick("maxTokens", maxima.maxTokens),
    maxCostUsd: pick("maxCostUsd", maxima.maxCostUsd),
    timeoutMs: pick("timeoutMs", maxima.timeoutMs),
  };
}
