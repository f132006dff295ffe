import { describe, expect, it } from "vitest";
import { decompose } from "./analyze.js";
import { comparisonClaim, numberIn } from "./compare.js";

describe("numberIn", () => {
  it("reads the first standalone number and its unit, not an identifier's digits", () => {
    expect(numberIn("| Server-side request timeout | 45 seconds |")).toEqual({ value: 45, unit: " seconds" });
    expect(numberIn("INC-2026-031 lasted 22 minutes")).toEqual({ value: 22, unit: " minutes" });
    expect(numberIn("no digits here")).toBeUndefined();
  });
});

describe("comparisonClaim", () => {
  it("names the winner of a 'which is longer, A or B' question with both values and the difference", () => {
    const [a, b] = decompose("Which has the longer timeout, PUT /v3/payouts or PUT /v2/payouts?");
    expect(a!.comparative).toBe("max");
    const claim = comparisonClaim([
      { part: a!, n: 1, quote: "Request timeout: 50 seconds" },
      { part: b!, n: 2, quote: "Request timeout: 35 seconds" },
    ]);
    expect(claim?.text).toBe(
      "PUT /v3/payouts (50 seconds) over PUT /v2/payouts (35 seconds), a difference of 15 seconds.",
    );
    expect(claim?.citations.map((c) => c.n)).toEqual([1, 2]);
  });

  it("compares durations in different units, and declines values whose units disagree", () => {
    const [a, b] = decompose("Which stoppage lasted longer, OUT-1 or OUT-2?");
    const mixed = comparisonClaim([
      { part: a!, n: 1, quote: "Duration: 2 minutes" },
      { part: b!, n: 2, quote: "Duration: 90 seconds" },
    ]);
    expect(mixed?.text).toBe("OUT-1 (2 minutes) over OUT-2 (90 seconds), a difference of 30 seconds.");
    const odd = comparisonClaim([
      { part: a!, n: 1, quote: "Size: 5 MB" },
      { part: b!, n: 2, quote: "Duration: 90 seconds" },
    ]);
    expect(odd).toBeUndefined();
  });

  it("picks the smaller side for 'fewer' and cites it first", () => {
    const [a, b] = decompose("Which squad has fewer engineers, Ledger Ops or Billing Edge?");
    const claim = comparisonClaim([
      { part: a!, n: 3, quote: "Engineers in the rotation: 9" },
      { part: b!, n: 4, quote: "Engineers in the rotation: 4" },
    ]);
    expect(claim?.text.startsWith("Billing Edge (4")).toBe(true);
    expect(claim?.citations[0]?.n).toBe(4);
  });
});

describe("comparisonClaim with read values", () => {
  it("compares the values read from each side's unit, not the quote's last number", () => {
    const [a, b] = decompose("Which carrier has the higher insurance cap, Halden Rail or Movi Freight?");
    const claim = comparisonClaim([
      { part: a!, n: 1, quote: "| Halden Rail | 19 SDR per kg | 89.5% |", value: "19 SDR per kg" },
      { part: b!, n: 2, quote: "| Movi Freight | 8.33 SDR per kg | 94.1% |", value: "8.33 SDR per kg" },
    ]);
    expect(claim?.text.startsWith("Halden Rail (19 SDR")).toBe(true);
  });
});

describe("comparisonClaim with ordered values", () => {
  it("names the more severe side from labelled ratings, not from stray numbers", () => {
    const [a, b] = decompose("Which got the more severe grade, QZ-3 or QZ-9?");
    const claim = comparisonClaim([
      {
        part: a!,
        n: 1,
        quote: "risk_level: high",
        ordered: { kind: "level", rank: 3, text: "high", labelled: true },
      },
      {
        part: b!,
        n: 2,
        quote: "risk_level: medium",
        ordered: { kind: "level", rank: 2, text: "medium", labelled: true },
      },
    ]);
    expect(claim?.text).toBe("QZ-3 (high) over QZ-9 (medium).");
    expect(claim?.citations.map((c) => c.n)).toEqual([1, 2]);
  });

  it("compares times of day: the earlier one wins an 'earlier' question", () => {
    const [a, b] = decompose("Which depot has the earlier van pickup, Quillmoor or Brackenfold?");
    expect(a!.comparative).toBe("min");
    const claim = comparisonClaim([
      { part: a!, n: 1, quote: "| QM | 16:10 |", ordered: { kind: "clock", rank: 970, text: "16:10", labelled: true } },
      { part: b!, n: 2, quote: "| BF | 15:40 |", ordered: { kind: "clock", rank: 940, text: "15:40", labelled: true } },
    ]);
    expect(claim?.text).toBe("Brackenfold (15:40) over Quillmoor (16:10), 30 minutes apart.");
    expect(claim?.citations.map((c) => c.n)).toEqual([2, 1]);
  });

  it("does not compare unlabelled times: a start time is not a duration", () => {
    const [a, b] = decompose("Which outage lasted longer, QZ-3 or QZ-9?");
    const claim = comparisonClaim([
      {
        part: a!,
        n: 1,
        quote: "Duration: 40 minutes, began 13:12",
        ordered: { kind: "clock", rank: 792, text: "13:12", labelled: false },
      },
      {
        part: b!,
        n: 2,
        quote: "Duration: 55 minutes, began 09:41",
        ordered: { kind: "clock", rank: 581, text: "09:41", labelled: false },
      },
    ]);
    expect(claim?.text).toBe("QZ-9 (55 minutes) over QZ-3 (40 minutes), a difference of 15 minutes.");
  });

  it("does not compare an unlabelled rating", () => {
    const [a, b] = decompose("Which got the more severe grade, QZ-3 or QZ-9?");
    const claim = comparisonClaim([
      { part: a!, n: 1, quote: "high", ordered: { kind: "level", rank: 3, text: "high", labelled: false } },
      { part: b!, n: 2, quote: "medium", ordered: { kind: "level", rank: 2, text: "medium", labelled: true } },
    ]);
    expect(claim).toBeUndefined();
  });
});
