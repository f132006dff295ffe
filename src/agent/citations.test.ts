import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../spec/answer.js";
import { checkCitations } from "./citations.js";

const evidence: EvidenceItem[] = [
  { id: "a::0", docId: "a", source: "s", text: "The  gateway\nwaits 30 seconds.", score: 1, step: 1, callId: "c1" },
  { id: "b::0", docId: "b", source: "s", text: "Dana Smith is on call.", score: 1, step: 1, callId: "c1" },
];

describe("checkCitations", () => {
  it("accepts a quote that matches after whitespace and case normalisation, keeping evidence numbering", () => {
    const check = checkCitations({
      evidence,
      claims: [{ text: "Dana is on call.", citations: [{ n: 2, quote: "dana smith IS on call" }] }],
    });
    expect(check.text).toBe("Dana is on call. [2]");
    expect(check.citations).toEqual([
      { n: 2, passageId: "b::0", docId: "b", source: "s", quote: "dana smith IS on call" },
    ]);
    expect(check.unsupported).toEqual([]);
  });

  it("normalises whitespace inside the passage and strips quotation marks and ellipses", () => {
    const check = checkCitations({
      evidence,
      claims: [{ text: "Waits.", citations: [{ n: 1, quote: '"…gateway waits 30 seconds"' }] }],
    });
    expect(check.claims).toHaveLength(1);
  });

  it("removes a bad citation, flags the claim, drops a claim with none left", () => {
    const check = checkCitations({
      evidence,
      claims: [
        {
          text: "Waits 30 s.",
          citations: [
            { n: 1, quote: "waits 30 seconds" },
            { n: 2, quote: "waits 30 seconds" },
          ],
        },
        { text: "Out of range.", citations: [{ n: 3, quote: "x" }] },
        { text: "No citation.", citations: [] },
        { text: "Empty quote.", citations: [{ n: 1, quote: "  " }] },
      ],
    });
    expect(check.text).toBe("Waits 30 s. [1]");
    expect(check.unsupported).toEqual(["Waits 30 s.", "Out of range.", "No citation.", "Empty quote."]);
    expect(check.dropped).toBe(3);
  });

  it("lists each (n, quote) once in order of first use", () => {
    const check = checkCitations({
      evidence,
      claims: [
        {
          text: "One.",
          citations: [
            { n: 2, quote: "on call" },
            { n: 1, quote: "gateway" },
          ],
        },
        { text: "Two.", citations: [{ n: 2, quote: "on call" }] },
      ],
    });
    expect(check.citations.map((c) => c.n)).toEqual([2, 1]);
    expect(check.text).toBe("One. [2][1] Two. [2]");
  });
});
