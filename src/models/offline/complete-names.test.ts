import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import { evidence, makeState, searchRecord } from "../__fixtures__/state.js";
import { decompose } from "./analyze.js";
import { answerFromEvidence } from "./answer.js";
import type { Candidate } from "./candidates.js";
import { completeNames, specific } from "./complete-names.js";
import { OFFLINE_PRESETS } from "./settings.js";

function unit(n: number, text: string, score = 1): Candidate {
  const item = { id: `p${n}`, docId: `d${n}`, source: "wiki", text, score: 1 } as EvidenceItem;
  return { n, step: 1, quote: text, title: "", score, context: text, passageText: text, start: 0, asked: 1, item };
}

describe("completeNames", () => {
  const value = unit(1, "Review lead: Ilse Brandt, for the Harrow outage.");
  const naming = unit(2, "The Quenby gateway is run by the Harrow team.", 0.4);
  const other = unit(3, "The Quenby portal opened in spring.", 0.9);
  const part = { entities: ["Harrow", "Quenby gateway"] };

  it("adds the best sentence naming each missing name", () => {
    expect(completeNames(part, [value], [value, other, naming], 2)?.map((c) => c.n)).toEqual([1, 2]);
  });

  it("never completes an identifier, path or code: a value about a record must come from its own passage", () => {
    const row = unit(4, "Routes overview: GET /v3/berths lists berths; ticket QX-88 and yard-loader too.", 0.5);
    for (const name of ["/v3/berths", "QX-88", "yard-loader"])
      expect(completeNames({ entities: [name] }, [value], [value, row], 2)).toBeUndefined();
    expect(specific("/v3/berths") && specific("QX-88") && specific("yard-loader")).toBe(true);
    expect(specific("Quenby Yard")).toBe(false);
  });

  it("adds nothing when nothing is missing, and gives up when a name is nowhere or too many sentences are needed", () => {
    expect(completeNames({ entities: ["Harrow"] }, [value], [value, naming], 2)).toBeUndefined();
    expect(completeNames({ entities: ["Harrow", "Velm Yard"] }, [value], [value, naming], 2)).toBeUndefined();
    expect(completeNames(part, [value], [value, naming], 0)).toBeUndefined();
    const split = { entities: ["Quenby", "spring", "Harrow team"] };
    expect(completeNames(split, [value], [value, other, naming], 1)).toBeUndefined();
  });
});

describe("answerFromEvidence cites the sentence that names what the answer's sentence does not", () => {
  const q = "Who is the review lead at Quenby Yard?";
  const items: EvidenceItem[] = [
    { ...evidence(1, "Review lead: Ilse Brandt.\nThe yard review lead found a full disk."), title: "Outage 17" },
    { ...evidence(2, "Outage 17 happened at Quenby Yard in May."), title: "Yard log" },
  ];
  const record = searchRecord(q, items);
  const state = makeState({ question: q, standaloneQuestion: q, evidence: items, calls: [record] });
  const parts = decompose(q);

  it("answers with both sentences cited", () => {
    const draft = answerFromEvidence(state, parts, OFFLINE_PRESETS.balanced);
    expect(draft.status).toBe("answered");
    expect(draft.claims.map((c) => c.text).join(" ")).toContain("Ilse Brandt");
    expect(draft.claims.flatMap((c) => c.citations.map((x) => x.n))).toEqual(expect.arrayContaining([1, 2]));
  });

  it("with completeNames 0, refuses", () => {
    const off = { ...OFFLINE_PRESETS.balanced, answer: { ...OFFLINE_PRESETS.balanced.answer, completeNames: 0 } };
    expect(answerFromEvidence(state, parts, off).status).toBe("refused");
  });
});
