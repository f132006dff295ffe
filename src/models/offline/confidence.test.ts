import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import type { AgentState, DraftAnswer } from "../../spec/engine.js";
import { decompose } from "./analyze.js";
import { assess, calibrate } from "./confidence.js";
import { OFFLINE_PRESETS, type RefusalSettings } from "./settings.js";

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

function draftCiting(n: number, quote: string): DraftAnswer {
  return { status: "answered", claims: [{ text: quote, citations: [{ n, quote }] }] };
}

const settings: RefusalSettings = OFFLINE_PRESETS.balanced.refusal;

describe("calibrated refusal", () => {
  const rules2026 = passage(
    "dg.md",
    "Hazardous cargo notice 2023",
    "This edition replaces the 2022 edition. Give at least 48 hours notice before loading.",
  );

  it("answers with a confidence when the cited evidence covers the question", () => {
    const q = "What notice period do the 2023 hazardous cargo rules require?";
    const out = calibrate(
      stateWith(q, [rules2026]),
      decompose(q),
      draftCiting(1, "Give at least 48 hours notice"),
      settings,
    );
    expect(out.status).toBe("answered");
    expect(out.confidence).toBeGreaterThan(0.8);
  });

  it("refuses a near miss and says what the evidence covers instead", () => {
    const q = "What notice period did the 2019 hazardous cargo rules require?";
    const out = calibrate(
      stateWith(q, [rules2026]),
      decompose(q),
      draftCiting(1, "Give at least 48 hours notice"),
      settings,
    );
    expect(out.status).toBe("refused");
    expect(out.reason).toContain("The evidence covers 2022 and 2023, not 2019");
    const off = calibrate(stateWith(q, [rules2026]), decompose(q), draftCiting(1, "Give at least 48 hours notice"), {
      ...settings,
      nearMiss: false,
      minConfidence: 0,
    });
    expect(off.status).toBe("answered");
  });

  it("does not refuse a compound question for a near miss in one part, but lowers its confidence", () => {
    const q = "What notice period did the 2019 hazardous cargo rules require, and who approves exceptions?";
    const parts = decompose(q);
    expect(parts).toHaveLength(2);
    const draft = draftCiting(1, "Give at least 48 hours notice");
    const out = calibrate(stateWith(q, [rules2026]), parts, draft, { ...settings, minConfidence: 0 });
    expect(out.status).toBe("answered");
    expect(out.confidence).toBeLessThan(0.5);
  });

  it("refuses below the threshold, and the threshold is what decides", () => {
    const q = "What is the tugger speed limit in the Nantes depot?";
    const rtm = passage("ant.md", "Depot safety rules: Antwerp", "Tuggers: 7 km/h in halls.");
    const state = stateWith(q, [rtm]);
    const draft = draftCiting(1, "Tuggers: 7 km/h in halls.");
    const a = assess(state, decompose(q), draft, settings);
    expect(a.cited.missing.map((c) => c.text)).toEqual(["Nantes"]);
    expect(calibrate(state, decompose(q), draft, { ...settings, minConfidence: a.confidence + 0.01 }).status).toBe(
      "refused",
    );
    expect(calibrate(state, decompose(q), draft, { ...settings, minConfidence: a.confidence }).status).toBe("answered");
  });

  it("weighs the best claim's passage for a plain lookup", () => {
    const q = "What is the tugger speed limit in the Nantes depot?";
    const rtm = passage("ant.md", "Depot safety rules: Antwerp", "Tuggers: 7 km/h in halls.");
    const lyon = passage("hubs.md", "Hub directory", "NTE: Nantes Atlantique, FR.");
    const leadOff = assess(
      stateWith(q, [rtm, lyon]),
      decompose(q),
      {
        status: "answered",
        claims: [
          { text: "7 km/h", citations: [{ n: 1, quote: "Tuggers: 7 km/h in halls." }] },
          { text: "Nantes", citations: [{ n: 2, quote: "NTE: Nantes Atlantique, FR." }] },
        ],
      },
      settings,
    );
    expect(leadOff.cited.share).toBe(1);
    expect(leadOff.lead).toBe(0);
    expect(leadOff.confidence).toBeLessThan(0.8);
    expect(leadOff.offTarget.map((c) => c.text)).toEqual(["Nantes"]);
  });

  it("gives a refusal confidence 0 and leaves it refused", () => {
    const q = "Who approves claims?";
    const out = calibrate(stateWith(q, []), decompose(q), { status: "refused", claims: [], reason: "none" }, settings);
    expect(out).toMatchObject({ status: "refused", confidence: 0, reason: "none" });
  });
});
