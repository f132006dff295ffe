import { describe, expect, it } from "vitest";
import { answer, evidence, searchEvents } from "../__fixtures__/builders.js";
import { allGoldAtK, evidenceRecall, recallAtK } from "./evidence-recall.js";
import { rankedEvidence } from "./ranked-evidence.js";

describe("rankedEvidence", () => {
  it("ranks distinct documents by step, then score, and keeps rows apart", () => {
    const events = [...searchEvents(2, "wiki", ["p.jsonl#3"]), ...searchEvents(1, "wiki", ["p.jsonl#1", "p.jsonl#2"])];
    const a = answer({
      evidence: [
        evidence("p.jsonl#1", { id: "p.jsonl#1::1", step: 1, score: 0.1 }),
        evidence("t.csv", { id: "t.csv#R-1", source: "t", step: 1, score: 0.95 }),
        evidence("t.csv", { id: "t.csv#R-2", source: "t", step: 2, score: 0.99 }),
      ],
    });
    const ranked = rankedEvidence(a, events).map((u) => u.id);
    expect(ranked).toEqual(["p.jsonl#1", "t.csv#R-1", "p.jsonl#2", "p.jsonl#3", "t.csv#R-2"]);
  });

  it("leaves out what the engine's probes saw: it decided with them, it did not retrieve them", () => {
    const probe = searchEvents(1, "wiki", ["p.jsonl#9"]).map((e) =>
      e.type === "tool-call-end" ? { ...e, purpose: "probe" as const } : e,
    );
    const ranked = rankedEvidence(undefined, [...probe, ...searchEvents(1, "wiki", ["p.jsonl#1"])]).map((u) => u.id);
    expect(ranked).toEqual(["p.jsonl#1"]);
  });
});

describe("recall", () => {
  const ranked = rankedEvidence(undefined, searchEvents(1, "wiki", ["a", "b", "c", "d", "e", "f"]));

  it("evidence recall counts gold found at any rank", () => {
    expect(evidenceRecall(ranked, ["a", "f", "z"])).toBeCloseTo(2 / 3);
    expect(evidenceRecall(ranked, [])).toBeNull();
  });

  it("recall@k and all_gold@k use the top k distinct documents", () => {
    expect(recallAtK(ranked, ["a", "f"], 2)).toBe(0.5);
    expect(recallAtK(ranked, ["a", "f"], 10)).toBe(1);
    expect(allGoldAtK(ranked, ["a", "f"], 5)).toBe(0);
    expect(allGoldAtK(ranked, ["a", "b"], 2)).toBe(1);
    expect(allGoldAtK(ranked, [], 2)).toBeNull();
  });

  it("normalises leading ./ in ids", () => {
    const r = rankedEvidence(answer({ evidence: [evidence("./docs/a.md")] }), []);
    expect(evidenceRecall(r, ["docs/a.md"])).toBe(1);
  });
});
