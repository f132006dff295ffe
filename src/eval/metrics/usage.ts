import type { Answer } from "../../spec/answer.js";

export interface UsageMetrics {
  tool_calls: number;
  /** The engine's own look-ups (routing, source ranking, name checks), traced apart from the plan's calls. */
  probes: number;
  llm_calls: number;
  tokens: number;
  cost_usd: number;
  latency_ms: number;
}

/** Cost of one run as the answer reports it. */
export function usageMetrics(answer: Pick<Answer, "usage" | "latencyMs">): UsageMetrics {
  return {
    tool_calls: answer.usage.toolCalls,
    probes: answer.usage.probes ?? 0,
    llm_calls: answer.usage.llmCalls,
    tokens: answer.usage.inputTokens + answer.usage.outputTokens,
    cost_usd: answer.usage.costUsd,
    latency_ms: answer.latencyMs,
  };
}
