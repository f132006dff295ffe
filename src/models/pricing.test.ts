import { describe, expect, it } from "vitest";
import { callCost, lookupPricing } from "./pricing.js";

describe("lookupPricing", () => {
  it("finds a listed model", () => {
    expect(lookupPricing({ id: "openai:gpt-4o-mini" })).toEqual({ input: 0.15, output: 0.6, source: "table" });
  });

  it("prefers the longest prefix, so gpt-4o-mini is not priced as gpt-4o", () => {
    expect(lookupPricing({ id: "openai:gpt-4o" }).input).toBe(2.5);
    expect(lookupPricing({ id: "openai:gpt-4o-mini-2024-07-18" }).input).toBe(0.15);
  });

  it("matches dated ids", () => {
    expect(lookupPricing({ id: "anthropic:claude-3-5-haiku-20241022" })).toEqual({
      input: 0.8,
      output: 4,
      source: "table",
    });
  });

  it("does not match a different model that merely shares letters", () => {
    expect(lookupPricing({ id: "openai:o3x" }).source).toBe("unknown");
  });

  it("lets the user override any price", () => {
    expect(lookupPricing({ id: "openai:gpt-4o", override: { input: 1, output: 2 } })).toEqual({
      input: 1,
      output: 2,
      source: "user",
    });
  });

  it("prices local models at zero and flags unknown ones", () => {
    expect(lookupPricing({ id: "ollama:qwen3" })).toEqual({ input: 0, output: 0, source: "local" });
    expect(lookupPricing({ id: "openai-compatible:mystery" })).toEqual({ input: 0, output: 0, source: "unknown" });
  });
});

describe("callCost", () => {
  it("charges per million tokens", () => {
    const pricing = lookupPricing({ id: "anthropic:claude-sonnet-4-5" });
    expect(callCost({ pricing, inputTokens: 1_000_000, outputTokens: 0 })).toBe(3);
    expect(callCost({ pricing, inputTokens: 2000, outputTokens: 1000 })).toBeCloseTo(0.006 + 0.015, 10);
  });

  it("is zero for unknown models", () => {
    expect(callCost({ pricing: lookupPricing({ id: "x:y" }), inputTokens: 5000, outputTokens: 5000 })).toBe(0);
  });
});
