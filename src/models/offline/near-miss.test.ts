import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import type { AgentState, DraftAnswer } from "../../spec/engine.js";
import { decompose } from "./analyze.js";
import { calibrate } from "./confidence.js";
import { otherSubject, subjectOf, valueForOther, writtenAsName } from "./near-miss.js";
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

  it("takes a table cell's value for a name, but not a column heading", () => {
    const table = "| Code | Depot | Country |\n|---|---|---|\n| BRE | Bremen Nord | DE |";
    expect(writtenAsName("Bremen", table)).toBe(true);
    expect(writtenAsName("Depot", table)).toBe(false);
    expect(writtenAsName("Country", table)).toBe(false);
  });
});

describe("a value given for another name than asked", () => {
  const ev = "| Code | Depot |\n|---|---|\n| BRE | Bremen Nord |\n| MXP | Milan Malpensa |";
  const q = "What is the tugger speed limit at the Milan depot?";

  it("names the other subject when the sentence's passage does not name the one asked", () => {
    const rules = { quote: "Bremen: 5 km/h in halls.", passageText: "Depot rules\nBremen: 5 km/h in halls." };
    expect(valueForOther(rules, ["Milan"], q, ev)).toBe("Bremen");
  });

  it("is nothing when the passage names what is asked, or the label is the asked name", () => {
    const both = { quote: "Bremen: 5 km/h in halls.", passageText: "Milan: 6 km/h.\nBremen: 5 km/h in halls." };
    expect(valueForOther(both, ["Milan"], q, ev)).toBeUndefined();
    const own = { quote: "Milan: 6 km/h in halls.", passageText: "Milan: 6 km/h in halls." };
    expect(valueForOther(own, ["Milan"], q, ev)).toBeUndefined();
    const field = { quote: "Halls: 5 km/h.", passageText: "Halls: 5 km/h." };
    expect(valueForOther(field, ["Milan"], q, ev)).toBeUndefined();
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

  it("refuses when the value is a side line next to a line that only names the site asked", () => {
    const q = "How fast may a tugger drive at the Milan site?";
    const swapped: DraftAnswer = { ...draft, claims: [draft.claims[1]!, draft.claims[0]!] };
    const out = calibrate(stateWith(q, [rules, hubs]), decompose(q), swapped, settings);
    expect(out.status).toBe("refused");
    expect(out.reason).toContain("for Antwerp, not Milan");
    expect(out.reason).toContain("Antwerp: 9 km/h");
  });

  it("answers when the asked name labels the line", () => {
    const q = "How fast may a tugger drive at the Antwerp site?";
    const out = calibrate(stateWith(q, [rules]), decompose(q), { ...draft, claims: [draft.claims[0]!] }, settings);
    expect(out.status).toBe("answered");
  });
});
