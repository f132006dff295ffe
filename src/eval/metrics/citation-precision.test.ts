import { describe, expect, it } from "vitest";
import { answer, evidence, question } from "../__fixtures__/builders.js";
import { citationGrounding, citationPrecision } from "./citation-precision.js";

const cite = (n: number, docId: string, quote = "x", passageId = `${docId}::0`) => ({
  n,
  passageId,
  docId,
  source: "handbook",
  quote,
});

describe("citationPrecision", () => {
  it("counts cited documents in gold_sources", () => {
    const a = answer({ citations: [cite(1, "docs/refunds.md"), cite(2, "docs/oncall.md")] });
    expect(citationPrecision(a, question({ gold_sources: ["docs/refunds.md"] }))).toBe(0.5);
  });

  it("matches cited table rows by row id", () => {
    const a = answer({ citations: [cite(1, "orders.csv#O-1", "acme", "orders.csv#O-1")] });
    expect(citationPrecision(a, question({ gold_sources: ["orders.csv#O-1"] }))).toBe(1);
  });

  it("is 0 when citing where no gold exists, and null without citations", () => {
    expect(citationPrecision(answer({ citations: [cite(1, "docs/a.md")] }), question({ gold_sources: [] }))).toBe(0);
    expect(citationPrecision(answer(), question())).toBeNull();
  });
});

describe("citationGrounding", () => {
  it("needs the cited passage in the evidence and the quote in its text", () => {
    const ev = evidence("docs/refunds.md", { text: "A refund request times out after 45 seconds." });
    const a = answer({
      evidence: [ev],
      citations: [
        cite(1, "docs/refunds.md", "times out after  45 SECONDS"),
        cite(2, "docs/refunds.md", "180 days"),
        cite(3, "docs/other.md", "x"),
      ],
    });
    expect(citationGrounding(a)).toBeCloseTo(1 / 3);
    expect(citationGrounding(answer())).toBeNull();
  });
});
