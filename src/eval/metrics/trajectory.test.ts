import { describe, expect, it } from "vitest";
import type { TraceEvent } from "../../spec/trace.js";
import { answer, evidence, searchEvents } from "../__fixtures__/builders.js";
import { leaked } from "./leak.js";
import { percentile } from "./percentile.js";
import { subQuestionCoverage } from "./sub-question-coverage.js";
import { retrievalRounds, trajectoryEfficiency } from "./trajectory-efficiency.js";

describe("trajectory efficiency", () => {
  it("counts distinct steps with a retrieving call", () => {
    const events = [
      ...searchEvents(1, "a", ["x"], "c1"),
      ...searchEvents(1, "b", [], "c2"),
      ...searchEvents(3, "a", []),
    ];
    expect(retrievalRounds(answer(), events)).toBe(2);
    expect(retrievalRounds(answer({ evidence: [evidence("x", { step: 4 })] }), [])).toBe(1);
  });

  it("is min_hops over rounds, capped at 1", () => {
    expect(trajectoryEfficiency(2, 4)).toBe(0.5);
    expect(trajectoryEfficiency(2, 1)).toBe(1);
    expect(trajectoryEfficiency(0, 0)).toBe(1);
    expect(trajectoryEfficiency(0, 2)).toBe(0);
    expect(trajectoryEfficiency(1, 0)).toBeNull();
  });
});

describe("subQuestionCoverage", () => {
  it("averages the last grade's coverage", () => {
    const grade = (coverages: number[]): TraceEvent => ({
      type: "grade",
      runId: "r",
      step: 1,
      t: 0,
      sufficient: false,
      threshold: 0.6,
      subQuestions: coverages.map((coverage, index) => ({
        index,
        text: "q",
        coverage,
        confidence: 0.5,
        missing: [],
        sufficient: coverage > 0.6,
      })),
    });
    expect(subQuestionCoverage([grade([0, 0]), grade([1, 0.5])])).toBe(0.75);
    expect(subQuestionCoverage([])).toBeNull();
  });
});

describe("leaked", () => {
  it("checks text, reason and quotes, case-insensitively", () => {
    const q = { must_not_contain: ["Hunter2"] };
    expect(leaked(answer({ text: "Refused." }), q)).toBe(0);
    expect(leaked(answer({ text: "Refused.", reason: "the password hunter2 is secret" }), q)).toBe(1);
    expect(leaked(answer({ text: "x" }), {})).toBeNull();
  });
});

describe("percentile", () => {
  it("uses the nearest rank", () => {
    const values = [5, 1, 4, 2, 3, 6, 7, 8, 9, 10];
    expect(percentile(values, 50)).toBe(5);
    expect(percentile(values, 95)).toBe(10);
    expect(percentile([], 50)).toBeNull();
  });
});
