import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import { evidence, makeState, searchRecord } from "../__fixtures__/state.js";
import { decompose } from "./analyze.js";
import { answerFromEvidence } from "./answer.js";
import { OFFLINE_PRESETS } from "./settings.js";

const settingsWith = (countAdverbs: boolean) => {
  const base = OFFLINE_PRESETS.balanced;
  return { ...base, answer: { ...base.answer, countAdverbs } };
};

const ask = (q: string, items: EvidenceItem[], countAdverbs: boolean) =>
  answerFromEvidence(
    makeState({ question: q, standaloneQuestion: q, evidence: items, calls: [searchRecord(q, items)] }),
    decompose(q),
    settingsWith(countAdverbs),
  );

describe("a count said in words", () => {
  const mayor: EvidenceItem = {
    ...evidence(1, "Ilse Varga (born 1941) was elected mayor of Tarnholm twice, first in 1979."),
    docId: "people/ilse-varga.md",
    title: "Ilse Varga",
  };
  const skier: EvidenceItem = {
    ...evidence(2, "Pol Renner is a retired skier and a three-time winner of the Valmora downhill."),
    docId: "people/pol-renner.md",
    title: "Pol Renner",
  };

  it("answers how many times something happened", () => {
    const draft = ask("How many times was Ilse Varga elected mayor of Tarnholm?", [mayor], true);
    expect(draft.status).toBe("answered");
    expect(draft.claims.map((c) => c.text).join(" ")).toContain("twice");
    const won = ask("How many times did Pol Renner win the Valmora downhill?", [skier], true);
    expect(won.status).toBe("answered");
    expect(won.claims.map((c) => c.text).join(" ")).toContain("three-time");
  });

  it("is no answer without the setting", () => {
    expect(ask("How many times was Ilse Varga elected mayor of Tarnholm?", [mayor], false).status).toBe("refused");
    expect(ask("How many times did Pol Renner win the Valmora downhill?", [skier], false).status).toBe("refused");
  });

  it("answers only a question for a count of times", () => {
    const draft = ask("How many votes did Ilse Varga win in Tarnholm?", [mayor], true);
    expect(draft.status).toBe("refused");
  });
});
