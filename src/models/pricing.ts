/** USD per million tokens, and what a call costs. Prices are list prices; users override them in config. */

export interface ModelPricing {
  /** USD per million input tokens. */
  input: number;
  /** USD per million output tokens. */
  output: number;
  /** Where the price came from: `unknown` means cost is reported as 0 and should not be trusted. */
  source: "table" | "user" | "local" | "unknown";
}

export type PriceOverride = Pick<ModelPricing, "input" | "output">;

/** List prices, USD per million tokens (input, output), keyed by `provider:model` prefix. */
export const PRICE_TABLE: Readonly<Record<string, readonly [number, number]>> = {
  "openai:gpt-4o": [2.5, 10],
  "openai:gpt-4o-mini": [0.15, 0.6],
  "openai:gpt-4.1": [2, 8],
  "openai:gpt-4.1-mini": [0.4, 1.6],
  "openai:gpt-4.1-nano": [0.1, 0.4],
  "openai:gpt-5": [1.25, 10],
  "openai:gpt-5-mini": [0.25, 2],
  "openai:gpt-5-nano": [0.05, 0.4],
  "openai:o3": [2, 8],
  "openai:o3-mini": [1.1, 4.4],
  "openai:o4-mini": [1.1, 4.4],
  "openai:gpt-4-turbo": [10, 30],
  "openai:gpt-3.5-turbo": [0.5, 1.5],
  "anthropic:claude-opus-4-5": [5, 25],
  "anthropic:claude-opus-4-1": [15, 75],
  "anthropic:claude-opus-4": [15, 75],
  "anthropic:claude-sonnet-4-5": [3, 15],
  "anthropic:claude-sonnet-4": [3, 15],
  "anthropic:claude-haiku-4-5": [1, 5],
  "anthropic:claude-3-7-sonnet": [3, 15],
  "anthropic:claude-3-5-sonnet": [3, 15],
  "anthropic:claude-3-5-haiku": [0.8, 4],
  "anthropic:claude-3-opus": [15, 75],
  "anthropic:claude-3-haiku": [0.25, 1.25],
};

/**
 * The price of `provider:model`: a user override wins, then the longest table entry that prefixes the id
 * (so dated ids such as `claude-3-5-haiku-20241022` match), then local models (ollama) at 0, else unknown.
 */
export function lookupPricing(options: { id: string; override?: PriceOverride }): ModelPricing {
  if (options.override) return { ...options.override, source: "user" };
  let best: string | undefined;
  for (const key of Object.keys(PRICE_TABLE)) {
    const matches = options.id === key || options.id.startsWith(`${key}-`) || options.id.startsWith(`${key}@`);
    if (matches && (best === undefined || key.length > best.length)) best = key;
  }
  const entry = best === undefined ? undefined : PRICE_TABLE[best];
  if (entry) return { input: entry[0], output: entry[1], source: "table" };
  if (options.id.startsWith("ollama:")) return { input: 0, output: 0, source: "local" };
  return { input: 0, output: 0, source: "unknown" };
}

/** USD for one call. */
export function callCost(options: { pricing: ModelPricing; inputTokens: number; outputTokens: number }): number {
  const { pricing, inputTokens, outputTokens } = options;
  return (inputTokens * pricing.input + outputTokens * pricing.output) / 1_000_000;
}
