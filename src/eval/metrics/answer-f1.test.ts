import { describe, expect, it } from "vitest";
import { exactMatch, tokenF1 } from "./answer-f1.js";

describe("exactMatch and tokenF1", () => {
  it("normalise case, punctuation and articles", () => {
    expect(exactMatch("The Anglican Communion.", "the anglican communion")).toBe(1);
    expect(exactMatch("Anglican", "the Anglican Communion")).toBe(0);
  });

  it("score token overlap", () => {
    expect(tokenF1("G. Stanley Hall [1]", "G. Stanley Hall")).toBe(1);
    expect(tokenF1("Stanley Hall was president", "G. Stanley Hall")).toBeCloseTo((2 * 0.5 * (2 / 3)) / (0.5 + 2 / 3));
    expect(tokenF1("nothing alike", "Latin")).toBe(0);
  });
});
