import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import { evidence, makeState, searchRecord } from "../__fixtures__/state.js";
import { decompose } from "./analyze.js";
import { answerFromEvidence, closestFound } from "./answer.js";
import { OFFLINE_PRESETS } from "./settings.js";

describe("a refusal says what was found instead", () => {
  it("quotes the closest sentence and names its document", () => {
    const item = { ...evidence(4, "x"), docId: "guides/ferries.md" };
    expect(closestFound({ quote: "The night ferry to Orsk leaves at 22:10.", item })).toBe(
      ' The closest found (guides/ferries.md): "The night ferry to Orsk leaves at 22:10.".',
    );
    expect(closestFound(undefined)).toBe("");
    const long = closestFound({ quote: "word ".repeat(100), item });
    expect(long.length).toBeLessThan(260);
    expect(long).toContain("…");
  });

  it("drops citation-like markers the quoted document carries", () => {
    const item = { ...evidence(4, "x"), docId: "guides/ferries.md" };
    const text = closestFound({ quote: "The night ferry leaves at 22:10 [3].", item });
    expect(text).toContain("leaves at 22:10.");
    expect(text).not.toMatch(/\[\d+\]/);
  });

  it("the offline answerer's refusal of a question about an unknown name quotes the best passage", () => {
    const q = "What is the docking fee at the Zelmar Quay terminal?";
    const items: EvidenceItem[] = [
      { ...evidence(1, "The docking fee at the Orsk terminal is 40 crowns per hour."), docId: "fees/orsk.md" },
    ];
    const record = searchRecord(q, items);
    const state = makeState({ question: q, standaloneQuestion: q, evidence: items, calls: [record] });
    const draft = answerFromEvidence(state, decompose(q), OFFLINE_PRESETS.balanced);
    expect(draft.status).toBe("refused");
    expect(draft.reason).toContain('The closest found (fees/orsk.md): "The docking fee at the Orsk terminal');
  });
});
