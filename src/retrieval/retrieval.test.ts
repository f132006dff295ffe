import { describe, expect, it } from "vitest";
import type { Passage } from "../spec/passage.js";
import { coverage } from "../text/overlap.js";
import { keywordConfidence, termCoverage } from "./calibrate.js";
import { dedupeOverlapping } from "./dedupe.js";
import { reciprocalRankFusion } from "./rrf.js";

const p = (id: string, docId: string, start: number, end: number, score = 0.5): Passage => ({
  id,
  docId,
  source: "s",
  text: id,
  score,
  start,
  end,
});

describe("reciprocalRankFusion", () => {
  it("ranks a passage found by both lists above one found by a single list", () => {
    const fused = reciprocalRankFusion([
      [p("a", "d1", 0, 10), p("b", "d2", 0, 10)],
      [p("c", "d3", 0, 10), p("b", "d2", 0, 10)],
    ]);
    expect(fused.map((x) => x.id)).toEqual(["b", "a", "c"]);
  });

  it("keeps the best confidence a list gave", () => {
    const fused = reciprocalRankFusion([[p("a", "d", 0, 1, 0.2)], [p("a", "d", 0, 1, 0.9)]]);
    expect(fused[0]?.score).toBe(0.9);
  });
});

describe("dedupeOverlapping", () => {
  it("drops a chunk that mostly overlaps a better one of the same document", () => {
    const kept = dedupeOverlapping([
      p("a", "d", 0, 100),
      p("b", "d", 20, 110),
      p("c", "d", 95, 200),
      p("e", "x", 0, 100),
    ]);
    expect(kept.map((x) => x.id)).toEqual(["a", "c", "e"]);
  });
});

describe("calibration", () => {
  it("measures query coverage with plural folding, across languages", () => {
    expect(coverage("refund timeout", "The refunds endpoint has a timeout.")).toBe(1);
    expect(coverage("refund timeout", "nothing relevant")).toBe(0);
    expect(coverage("退款超时", "退款超时是45秒")).toBeGreaterThan(0.5);
  });

  it("counts a term found at the start of a word only (a prefix, as the stemmed index matches)", () => {
    expect(termCoverage(["refund"], "Refunds are paid in 5 days.")).toBe(1);
    expect(termCoverage(["refund"], "(refund) policy")).toBe(1);
    expect(termCoverage(["fund"], "Refunds are paid.")).toBe(0);
    expect(termCoverage(["fund"], "Refunds and a fund.")).toBe(1);
    expect(termCoverage(["fund"], "3fund")).toBe(0);
    // A letter outside the BMP before the term is still a letter.
    expect(termCoverage(["fund"], "𝐀fund")).toBe(0);
    expect(termCoverage(["退款", "timeout"], "退款超时")).toBe(0.5);
    // An English gloss counts where the text holds a German or Japanese word it glosses.
    expect(termCoverage(["invoice"], "Die Rechnungen gehen monatlich raus.")).toBe(1);
    expect(termCoverage(["invoice"], "請求書は月末に届きます。")).toBe(1);
    expect(termCoverage(["invoice"], "Die Lieferung kommt morgen.")).toBe(0);
    expect(termCoverage([], "anything")).toBe(0);
  });

  it("gives higher confidence to passages covering more of the query", () => {
    const full = keywordConfidence(["refund", "timeout"], "refund timeout is 45 s", 5);
    const half = keywordConfidence(["refund", "timeout"], "refund window is 180 days", 5);
    expect(full).toBeGreaterThan(half);
    expect(full).toBeLessThanOrEqual(1);
  });
});
