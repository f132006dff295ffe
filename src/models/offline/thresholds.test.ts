import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import { makeState, searchRecord } from "../__fixtures__/state.js";
import { decompose } from "./analyze.js";
import { candidates } from "./candidates.js";
import { rangeFit, statedAmounts, statedRanges } from "./thresholds.js";

describe("statedRanges", () => {
  it("reads upper and lower bounds and spans, with currencies and thousands separators", () => {
    expect(statedRanges("| up to usd 1,000 | clerk |")).toEqual([{ max: 1000, unit: "usd" }]);
    expect(statedRanges("| usd 1,000.01 to usd 5,000 | team lead |")).toEqual([
      { min: 1000.01, max: 5000, unit: "usd" },
    ]);
    expect(statedRanges("orders above €5,000 need a second signature")).toEqual([{ min: 5000, unit: "eur" }]);
    expect(statedRanges("between 10 and 20 pallets")).toEqual([{ min: 10, max: 20, unit: "pallet" }]);
    expect(statedRanges("aufträge über 2,5 mio")).toEqual([]);
    expect(statedRanges("sendungen ab 300 kg")).toEqual([{ min: 300, unit: "kg" }]);
    expect(statedRanges("5,000円以上は部長が承認")).toEqual([{ min: 5000 }]);
  });

  it("does not read dates, versions or identifiers as ranges", () => {
    expect(statedRanges("valid from 2025-01-01 to 2025-06-30 under v2.3")).toEqual([]);
    expect(statedRanges("see ticket ab-100 and over-9")).toEqual([]);
  });
});

describe("statedAmounts", () => {
  it("takes amounts but not years or identifiers", () => {
    expect(statedAmounts("A supplier bills USD 9,000 in 2025 for order PO-7781. Who signs?")).toEqual([
      { value: 9000, unit: "usd" },
    ]);
    expect(statedAmounts("Is a 40k order fine?")).toEqual([{ value: 40000, unit: "order" }]);
  });
});

describe("rangeFit", () => {
  const usd = (value: number) => [{ value, unit: "usd" }];
  it("is 1 inside a stated range (bounds included), -1 outside, 0 without a range or an amount", () => {
    expect(rangeFit(usd(9000), "| above USD 5,000 | Regional manager |")).toBe(1);
    expect(rangeFit(usd(5000), "| above USD 5,000 | Regional manager |")).toBe(1);
    expect(rangeFit(usd(9000), "| up to USD 1,000 | Clerk |")).toBe(-1);
    expect(rangeFit(usd(9000), "The regional manager signs off large orders.")).toBe(0);
    expect(rangeFit([], "| up to USD 1,000 | Clerk |")).toBe(0);
  });

  it("says nothing of a range that counts another thing than the amount", () => {
    expect(rangeFit(usd(9000), "A rebate applies for more than 1,500 pallets a year.")).toBe(0);
  });
});

describe("candidates with a stated amount", () => {
  const item = (n: number, text: string): EvidenceItem => ({
    id: `purchasing.md::${n}`,
    docId: "purchasing.md",
    source: "handbook",
    text,
    score: 0.6,
    step: 1,
    callId: "c1",
  });
  const table = item(
    0,
    "| Order value | Approver |\n|---|---|\n| up to USD 1,000 | Clerk |\n| USD 1,000.01 to USD 5,000 | Team lead |\n| above USD 5,000 | Regional manager |",
  );
  const question = "A supplier order comes to USD 9,000. Who approves it?";

  function best(thresholdWeight: number): string {
    const state = makeState({
      question,
      standaloneQuestion: question,
      evidence: [table],
      calls: [searchRecord("supplier order approves", [table])],
    });
    const part = decompose(question)[0]!;
    const all = candidates(state, part, 0, "person", {
      skipBoilerplate: true,
      anchorIdentifiers: true,
      fieldLabelWeight: 0.3,
      wordForms: true,
      thresholdWeight,
    });
    return all[0]?.quote ?? "";
  }

  it("puts the row whose range holds the amount first", () => {
    expect(best(0.5)).toContain("Regional manager");
  });

  it("without the weight, the rows are not told apart by the amount", () => {
    expect(best(0)).not.toContain("Regional manager");
  });
});
