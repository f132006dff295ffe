import { describe, expect, it } from "vitest";
import { negated, verdictOf } from "./polarity.js";

describe("verdictOf", () => {
  it("says no when the evidence negates what the question asks, yes when it states it", () => {
    const q = "Are couriers in Lübeck allowed to take the extension?";
    expect(verdictOf(q, "Couriers in Lübeck are not allowed to take the extension.", 1, 0.7)?.answer).toBe("no");
    expect(verdictOf(q, "Couriers in Lübeck are allowed to take the extension twice a week.", 1, 0.7)?.answer).toBe(
      "yes",
    );
  });

  it("gives no verdict when the sentence does not state what is asked", () => {
    expect(verdictOf("Is the gateway tier 1?", "The gateway stores frames.", 0.3, 0.7)).toBeUndefined();
  });

  it("compares the question's number with the evidence's", () => {
    const q = "Is the frame limit more than 50 KB?";
    expect(verdictOf(q, "Maximum frame size: 64 KB", 0, 0.7)).toEqual({ answer: "yes", by: "number" });
    expect(verdictOf("Is the limit under 50 KB?", "Maximum frame size: 64 KB", 0, 0.7)?.answer).toBe("no");
    expect(verdictOf("Is the timeout 45 seconds?", "Timeout: 20 seconds", 0, 0.7)?.answer).toBe("no");
  });

  it("compares dates with a before/after cue", () => {
    const q = "Was v1 switched off before 2027-09-01?";
    expect(verdictOf(q, "v1 will be switched off on 2027-08-15.", 0, 0.7)).toEqual({ answer: "yes", by: "date" });
    expect(verdictOf("Was it released after 2027-09-01?", "Released on 2027-08-15.", 0, 0.7)?.answer).toBe("no");
  });
});

describe("negated", () => {
  it("reads negation in four languages", () => {
    expect(negated("Das ist nicht erlaubt.")).toBe(true);
    expect(negated("该设备不能使用。")).toBe(true);
    expect(negated("使用できません。")).toBe(true);
    expect(negated("Notes are kept.")).toBe(false);
  });
});
