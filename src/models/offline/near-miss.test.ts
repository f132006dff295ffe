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
    expect(subjectOf("Rotterdam: 7 km/h in halls.")).toBe("Rotterdam");
    expect(subjectOf("| Acme Corp | 2025 | 4.1 |")).toBe("Acme Corp");
    expect(subjectOf("大阪: 時速8km")).toBeUndefined();
    expect(subjectOf("The limit is 7 km/h in halls.")).toBeUndefined();
    expect(subjectOf("speed limit: 7 km/h")).toBeUndefined();
  });

  it("is another subject only when the question names something the line's passage lacks", () => {
    const missing = [{ kind: "name" as const, value: "lyon", text: "Lyon" }];
    const ev = "Trucks leave from Rotterdam daily.\nHalls: 7 km/h";
    const q = "How fast may forklifts drive at Lyon?";
    expect(otherSubject("Rotterdam: 7 km/h", q, missing, ev)).toBe("Rotterdam");
    expect(otherSubject("Rotterdam: 7 km/h", "How fast may forklifts drive at Rotterdam?", [], ev)).toBeUndefined();
    // A field name that only starts lines is not a subject.
    expect(otherSubject("Halls: 7 km/h", q, missing, ev)).toBeUndefined();
  });

  it("tells names from field names by how the evidence writes them", () => {
    expect(writtenAsName("Rotterdam", "Pallets built in Rotterdam are checked.")).toBe(true);
    expect(writtenAsName("Forklifts", "Forklifts: 7 km/h. Other forklifts wait.")).toBe(false);
    expect(writtenAsName("Lyon", "Lyonnaise rules apply in Lyon")).toBe(true);
  });
});

describe("refusing a value given for another subject", () => {
  const rules = passage(
    "safety.md",
    "Warehouse safety rules",
    "Rules are posted in Rotterdam and Hamburg.\nRotterdam: 7 km/h in halls.\nHamburg: 6 km/h in halls.",
  );
  const hubs = passage("hubs.md", "Hub directory", "| LYS | Lyon Saint-Priest | FR |");
  const draft: DraftAnswer = {
    status: "answered",
    claims: [
      { text: "Rotterdam: 7 km/h in halls.", citations: [{ n: 1, quote: "Rotterdam: 7 km/h in halls." }] },
      { text: "LYS: Lyon Saint-Priest: FR", citations: [{ n: 2, quote: "| LYS | Lyon Saint-Priest | FR |" }] },
    ],
  };

  it("refuses and says whose value the evidence gives", () => {
    const q = "How fast may a forklift drive at the Lyon site?";
    const out = calibrate(stateWith(q, [rules, hubs]), decompose(q), draft, settings);
    expect(out.status).toBe("refused");
    expect(out.reason).toContain("for Rotterdam, not Lyon");
    const off = calibrate(stateWith(q, [rules, hubs]), decompose(q), draft, {
      ...settings,
      otherSubject: false,
      minConfidence: 0,
    });
    expect(off.status).toBe("answered");
  });

  it("answers when the asked name labels the line", () => {
    const q = "How fast may a forklift drive at the Rotterdam site?";
    const out = calibrate(stateWith(q, [rules]), decompose(q), { ...draft, claims: [draft.claims[0]!] }, settings);
    expect(out.status).toBe("answered");
  });
});
