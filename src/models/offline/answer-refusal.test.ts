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

  describe("a value for another name than asked", () => {
    const rules = {
      ...evidence(1, "Limits are posted at every entrance. Bremen: tuggers keep to a speed limit of 5 km/h in halls."),
      docId: "rules/speed.md",
    };
    const hubs = {
      ...evidence(
        2,
        "| Code | Depot | Country |\n|---|---|---|\n| MXP | Milan Malpensa | IT |\n| BRE | Bremen Nord | DE |",
      ),
      docId: "hubs.md",
    };
    const ask = (q: string) =>
      answerFromEvidence(
        makeState({
          question: q,
          standaloneQuestion: q,
          evidence: [rules, hubs],
          calls: [searchRecord(q, [rules, hubs]), searchRecord("Milan", [hubs], { callId: "by-name" })],
        }),
        decompose(q),
        OFFLINE_PRESETS.balanced,
      );

    it("refuses a lookup whose only value is another depot's, and says whose value it found", () => {
      const draft = ask("What is the tugger speed limit at the Milan depot?");
      expect(draft.status).toBe("refused");
      expect(draft.reason).toContain("the evidence gives this for Bremen, not Milan");
    });

    it("answers the same lookup for the depot the value is given for", () => {
      const draft = ask("What is the tugger speed limit at the Bremen depot?");
      expect(draft.status).toBe("answered");
      expect(draft.claims.map((c) => c.text).join(" ")).toContain("5 km/h");
    });
  });
});
