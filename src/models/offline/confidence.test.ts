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
    "Dangerous goods acceptance 2026",
    "This edition replaces the 2025 edition. Book at least 72 hours before pickup.",
  );

  it("answers with a confidence when the cited evidence covers the question", () => {
    const q = "What booking lead time do the 2026 dangerous goods rules require?";
    const out = calibrate(stateWith(q, [rules2026]), decompose(q), draftCiting(1, "Book at least 72 hours"), settings);
    expect(out.status).toBe("answered");
    expect(out.confidence).toBeGreaterThan(0.8);
  });

  it("refuses a near miss and says what the evidence covers instead", () => {
    const q = "What booking lead time did the 2024 dangerous goods rules require?";
    const out = calibrate(stateWith(q, [rules2026]), decompose(q), draftCiting(1, "Book at least 72 hours"), settings);
    expect(out.status).toBe("refused");
    expect(out.reason).toContain("The evidence covers 2025 and 2026, not 2024");
    const off = calibrate(stateWith(q, [rules2026]), decompose(q), draftCiting(1, "Book at least 72 hours"), {
      ...settings,
      nearMiss: false,
      minConfidence: 0,
    });
    expect(off.status).toBe("answered");
  });

  it("does not refuse a compound question for a near miss in one part, but lowers its confidence", () => {
    const q = "What lead time did the 2024 dangerous goods rules require, and who approves exceptions?";
    const parts = decompose(q);
    expect(parts).toHaveLength(2);
    const draft = draftCiting(1, "Book at least 72 hours");
    const out = calibrate(stateWith(q, [rules2026]), parts, draft, { ...settings, minConfidence: 0 });
    expect(out.status).toBe("answered");
    expect(out.confidence).toBeLessThan(0.5);
  });

  it("refuses below the threshold, and the threshold is what decides", () => {
    const q = "What is the forklift speed limit in the Lyon warehouse?";
    const rtm = passage("rtm.md", "Warehouse safety rules: Rotterdam", "Forklifts: 7 km/h in halls.");
    const state = stateWith(q, [rtm]);
    const draft = draftCiting(1, "Forklifts: 7 km/h in halls.");
    const a = assess(state, decompose(q), draft, settings);
    expect(a.cited.missing.map((c) => c.text)).toEqual(["Lyon"]);
    expect(calibrate(state, decompose(q), draft, { ...settings, minConfidence: a.confidence + 0.01 }).status).toBe(
      "refused",
    );
    expect(calibrate(state, decompose(q), draft, { ...settings, minConfidence: a.confidence }).status).toBe("answered");
  });

  it("weighs the best claim's passage for a plain lookup", () => {
    const q = "What is the forklift speed limit in the Lyon warehouse?";
    const rtm = passage("rtm.md", "Warehouse safety rules: Rotterdam", "Forklifts: 7 km/h in halls.");
    const lyon = passage("hubs.md", "Hub directory", "LYS: Lyon Saint-Priest, FR.");
    const leadOff = assess(
      stateWith(q, [rtm, lyon]),
      decompose(q),
      {
        status: "answered",
        claims: [
          { text: "7 km/h", citations: [{ n: 1, quote: "Forklifts: 7 km/h in halls." }] },
          { text: "Lyon", citations: [{ n: 2, quote: "LYS: Lyon Saint-Priest, FR." }] },
        ],
      },
      settings,
    );
    expect(leadOff.cited.share).toBe(1);
    expect(leadOff.lead).toBe(0);
    expect(leadOff.confidence).toBeLessThan(0.8);
    expect(leadOff.offTarget.map((c) => c.text)).toEqual(["Lyon"]);
  });

  it("gives a refusal confidence 0 and leaves it refused", () => {
    const q = "Who approves claims?";
    const out = calibrate(stateWith(q, []), decompose(q), { status: "refused", claims: [], reason: "none" }, settings);
    expect(out).toMatchObject({ status: "refused", confidence: 0, reason: "none" });
  });
});
