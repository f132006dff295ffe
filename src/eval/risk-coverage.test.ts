import { describe, expect, it } from "vitest";
import { type ConfidencePoint, calibrateThreshold, riskCoverage } from "./risk-coverage.js";

const p = (confidence: number | null, correct: boolean, unanswerable = false, answered = true): ConfidencePoint => ({
  confidence,
  answered,
  correct,
  unanswerable,
});

describe("riskCoverage", () => {
  it("sorts answers by confidence and gives coverage and accuracy at each cut", () => {
    const points = [p(0.9, true), p(0.2, false, true), p(0.6, true), p(null, false, false, false)];
    expect(riskCoverage(points)).toEqual([
      { threshold: 0.9, coverage: 0.25, accuracy: 1 },
      { threshold: 0.6, coverage: 0.5, accuracy: 1 },
      { threshold: 0.2, coverage: 0.75, accuracy: 0.667 },
    ]);
  });

  it("merges equal confidences into one point and is empty without confidences", () => {
    expect(riskCoverage([p(0.5, true), p(0.5, false)])).toEqual([{ threshold: 0.5, coverage: 1, accuracy: 0.5 }]);
    expect(riskCoverage([p(null, true)])).toEqual([]);
  });
});

describe("calibrateThreshold", () => {
  it("picks the highest threshold whose refusals reach the target precision", () => {
    const points = [p(0.1, false, true), p(0.2, false, true), p(0.3, false), p(0.8, true), p(0.9, true)];
    // Below 0.25: two refusals, both unanswerable (1.0). Below 0.55: 2 of 3 (0.67).
    expect(calibrateThreshold(points, 0.9)).toEqual({ target: 0.9, threshold: 0.25, precision: 1, refused: 2 });
    expect(calibrateThreshold(points, 0.6)).toEqual({ target: 0.6, threshold: 0.55, precision: 0.667, refused: 3 });
  });

  it("gives no threshold when no cut reaches the target", () => {
    expect(calibrateThreshold([p(0.1, false), p(0.5, true)], 0.5).threshold).toBeNull();
  });
});
