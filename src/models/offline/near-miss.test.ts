import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import type { AgentState, DraftAnswer } from "../../spec/engine.js";
import { decompose } from "./analyze.js";
import { calibrate } from "./confidence.js";
import { otherSubject, subjectOf, writtenAsName } from "./near-miss.js";
import { OFFLINE_PRESETS } from "./settings.js";

function passage(docId: string, title: string, text: string): EvidenceItem {
  return { id: `${docId}::0`, docId, source: "docs", title, text, score: 0.5, step: 1, callId: "c1" };
}

function stateWith(question: string, evidence: EvidenceItem[]): AgentState {
  return {
    runId: "r",
    question,
    standaloneQuestion: question,
    history: [],
    sources: [],
    tools: [],
    step: 1,
    maxSteps: 4,
    preset: "balanced",
    evidence,
    calls: [],
    subQuestions: [],
    forceAnswer: false,
  };
}

const settings = OFFLINE_PRESETS.balanced.refusal;

describe("the subject of an answering line", () => {
  it("is the name labelling a line or leading a table row", () => {
    expect(subjectOf("Antwerp: 9 km/h in halls.")).toBe("Antwerp");
    expect(subjectOf("| Acme Corp | 2025 | 4.1 |")).toBe("Acme Corp");
    expect(subjectOf("名古屋: 時速9km")).toBeUndefined();
    expect(subjectOf("The limit is 9 km/h in halls.")).toBeUndefined();
    expect(subjectOf("speed limit: 9 km/h")).toBeUndefined();
  });

  it("is another subject only when the question names something the line's passage lacks", () => {
    const missing = [{ kind: "name" as const, value: "milan", text: "Milan" }];
    const ev = "Trucks leave from Antwerp daily.\nHalls: 9 km/h";
    const q = "How fast may tuggers drive at Milan?";
    expect(otherSubject("Antwerp: 9 km/h", q, missing, ev)).toBe("Antwerp");
    expect(otherSubject("Antwerp: 9 km/h", "How fast may tuggers drive at Antwerp?", [], ev)).toBeUndefined();
    // A field name that only starts lines is not a subject.
    expect(otherSubject("Halls: 9 km/h", q, missing, ev)).toBeUndefined();
  });

  it("tells names from field names by how the evidence writes them", () => {
    expect(writtenAsName("Antwerp", "Pallets built in Antwerp are checked.")).toBe(true);
    expect(writtenAsName("Tuggers", "Tuggers: 9 km/h. Other tuggers wait.")).toBe(false);
    expect(writtenAsName("Milan", "Milanese rules apply in Milan")).toBe(true);
  });
});

describe("refusing a value given for another subject", () => {
  const rules = passage(
    "safety.md",
    "Warehouse safety rules",
    "Rules are posted in Antwerp and Bremen.\nAntwerp: 9 km/h in halls.\nBremen: 5 km/h in halls.",
  );
  const hubs = passage("hubs.md", "Hub directory", "| MXP | Milan Malpensa | IT |");
  const draft: DraftAnswer = {
    status: "answered",
    claims: [
      { text: "Antwerp: 9 km/h in halls.", citations: [{ n: 1, quote: "Antwerp: 9 km/h in halls." }] },
      { text: "MXP: Milan Malpensa: IT", citations: [{ n: 2, quote: "| MXP | Milan Malpensa | IT |" }] },
    ],
  };

  it("refuses and says whose value the evidence gives", () => {
    const q = "How fast may a tugger drive at the Milan site?";
    const out = calibrate(stateWith(q, [rules, hubs]), decompose(q), draft, settings);
    expect(out.status).toBe("refused");
    expect(out.reason).toContain("for Antwerp, not Milan");
    const off = calibrate(stateWith(q, [rules, hubs]), decompose(q), draft, {
      ...settings,
      otherSubject: false,
      minConfidence: 0,
    });
    expect(off.status).toBe("answered");
  });

  it("answers when the asked name labels the line", () => {
    const q = "How fast may a tugger drive at the Antwerp site?";
    const out = calibrate(stateWith(q, [rules]), decompose(q), { ...draft, claims: [draft.claims[0]!] }, settings);
    expect(out.status).toBe("answered");
  });
});
