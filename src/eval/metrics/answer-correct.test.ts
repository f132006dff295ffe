import { describe, expect, it } from "vitest";
import { answer, question } from "../__fixtures__/builders.js";
import { answerCorrect } from "./answer-correct.js";
import { refusalAccurate } from "./refusal-accurate.js";

describe("answerCorrect", () => {
  it("needs every keyword group", () => {
    const q = question({ answer_keywords: [["Odile Brandt"], ["Thursday"], ["19:30", "7:30 pm"]] });
    expect(answerCorrect(answer({ text: "Odile Brandt runs it; rota swap Thursday at 7:30 PM [1]." }), q)).toBe(true);
    expect(answerCorrect(answer({ text: "Odile Brandt runs it; rota swap on Thursday." }), q)).toBe(false);
  });

  it("ignores citation markers when matching", () => {
    const q = question({ answer_keywords: [["2", "two"]] });
    expect(answerCorrect(answer({ text: "Acme has several orders [2]." }), q)).toBe(false);
    expect(answerCorrect(answer({ text: "Acme has 2 orders [1]." }), q)).toBe(true);
  });

  it("a refusal is never a correct answer to an answerable question", () => {
    expect(answerCorrect(answer({ status: "refused", text: "45 seconds is not documented" }), question())).toBe(false);
  });

  it("expect_refusal needs a refusal without citations", () => {
    const q = question({ expect_refusal: true, answer_keywords: [], gold_sources: [] });
    expect(answerCorrect(answer({ status: "refused", text: "Not in the sources." }), q)).toBe(true);
    const cited = answer({
      status: "refused",
      text: "No.",
      citations: [{ n: 1, passageId: "a::0", docId: "a", source: "s", quote: "x" }],
    });
    expect(answerCorrect(cited, q)).toBe(false);
    expect(answerCorrect(answer({ text: "It is 3%." }), q)).toBe(false);
  });
});

describe("refusalAccurate", () => {
  it("compares refusing with expecting a refusal", () => {
    expect(refusalAccurate(answer({ status: "refused" }), { expect_refusal: true })).toBe(true);
    expect(refusalAccurate(answer({ status: "partial" }), { expect_refusal: true })).toBe(false);
    expect(refusalAccurate(answer({ status: "refused" }), { expect_refusal: false })).toBe(false);
    expect(refusalAccurate(answer({ status: "answered" }), { expect_refusal: false })).toBe(true);
  });
});
