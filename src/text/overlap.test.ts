import { describe, expect, it } from "vitest";
import { coverage, fold, labelTerms, termSet } from "./overlap.js";

describe("labelTerms", () => {
  it("gives the parts of a snake_case field label as terms too", () => {
    expect(termSet("shipped_on: 2031-05-02").has(fold("shipped"))).toBe(false);
    const have = labelTerms("shipped_on: 2031-05-02");
    expect(have.has(fold("shipped"))).toBe(true);
    expect(have.has("shipped_on")).toBe(true);
  });

  it("lets a question word meet the field label that answers it", () => {
    const asked = ["crate", "shipped"];
    expect(coverage(asked, labelTerms("packed_on: 2031-05-01\nshipped_on: 2031-05-02"))).toBeGreaterThan(0);
    expect(coverage(asked, labelTerms("packedon: 2031-05-01"))).toBe(0);
  });
});

describe("labelTerms of codes", () => {
  it("keeps an upper-case code one term", () => {
    const have = labelTerms("Rejected with CRATE_NOT_SEALED.");
    expect(have.has(fold("crate_not_sealed"))).toBe(true);
    expect(have.has(fold("crate"))).toBe(false);
  });
});
