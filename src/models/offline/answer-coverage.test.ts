import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import { weightedCoverage } from "../../text/overlap.js";
import { evidence, makeState, searchRecord } from "../__fixtures__/state.js";
import { decompose } from "./analyze.js";
import { answerFromEvidence } from "./answer.js";
import { wordWeight } from "./candidates.js";
import { OFFLINE_PRESETS } from "./settings.js";

describe("weightedCoverage", () => {
  it("counts each query term by its weight", () => {
    const text = "the lighthouse keeper rowed out";
    expect(weightedCoverage(["lighthouse", "keeper", "assorted", "notable"], text, () => 1)).toBe(0.5);
    const light = (t: string) => (t === "assort" || t === "notable" ? 0.25 : 1);
    expect(weightedCoverage(["lighthouse", "keeper", "assorted", "notable"], text, light)).toBeCloseTo(0.8);
    expect(weightedCoverage([], text, () => 1)).toBe(0);
  });
});

describe("answerFromEvidence weighs question words the evidence never holds lightly", () => {
  // A long descriptive question: most of its describing words are phrased otherwise by the sources.
  const q =
    "Which ferry operator, praised by travellers for assorted scenic coastal routes and several notable winter crossings, owns the Tarlow Belle?";
  const items: EvidenceItem[] = [
    { ...evidence(1, "The Tarlow Belle is a ferry owned by Brisk Channel Lines since 1998."), title: "Tarlow Belle" },
    { ...evidence(2, "Brisk Channel Lines is a ferry operator based in Penhallow."), title: "Brisk Channel Lines" },
  ];
  // The hop's search: what it looked for is stated by the first passage.
  const calls = [searchRecord("ferry owned Tarlow Belle", items)];
  const state = makeState({ question: q, standaloneQuestion: q, evidence: items, calls });
  const parts = decompose(q);

  it("answers from the sentence that says who owns it", () => {
    const draft = answerFromEvidence(state, parts, OFFLINE_PRESETS.balanced);
    expect(draft.status).toBe("answered");
    expect(draft.claims.map((c) => c.text).join(" ")).toContain("Brisk Channel Lines");
  });

  it("with every word weighing the same, refuses", () => {
    const flat = { ...OFFLINE_PRESETS.balanced, answer: { ...OFFLINE_PRESETS.balanced.answer, unheldWordWeight: 1 } };
    expect(answerFromEvidence(state, parts, flat).status).toBe("refused");
  });

  it("keeps full weight for words the evidence holds, what is asked for, and numbers", () => {
    const asked = "What docking fee did the Tarlow Belle charge in 2019?";
    const weight = wordWeight(makeState({ evidence: items }), decompose(asked)[0]!, 0.5);
    expect([weight("ferry"), weight("dock"), weight("fee"), weight("2019"), weight("charge")]).toEqual([
      1, 1, 1, 1, 0.5,
    ]);
    expect(wordWeight(makeState({ evidence: items }), decompose(asked)[0]!, 1)("charge")).toBe(1);
  });
});
