import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import type { AgentState } from "../../spec/engine.js";
import { passageKey } from "../../spec/passage.js";
import { decompose } from "./analyze.js";
import { bridgeNames, gradePart } from "./grade.js";

function stateFound(question: string, texts: string[]): AgentState {
  const evidence: EvidenceItem[] = texts.map((text, i) => ({
    id: `doc${i}.md::0`,
    docId: `doc${i}.md`,
    source: "docs",
    title: `Document ${i}`,
    text,
    score: 0.6,
    step: 1,
    callId: "c1",
  }));
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
    calls: [
      {
        call: { callId: "c1", tool: "search", args: { query: question }, subQuestion: 0 },
        step: 1,
        status: "ok",
        passageKeys: evidence.map(passageKey),
      },
    ],
    subQuestions: [],
    forceAnswer: false,
  };
}

describe("gradePart", () => {
  it("does not demand filler words of the evidence", () => {
    const q = "How many hours ahead must an oversized cargo pickup be booked these days?";
    const [part] = decompose(q);
    const g = gradePart(
      stateFound(q, ["Oversized cargo pickups must be booked at least 36 hours in advance."]),
      part!,
      0,
      0.8,
    );
    expect(g.missing).toEqual([]);
    expect(g.sufficient).toBe(true);
  });

  it("is not sufficient when the evidence is about another year than asked, and names the year", () => {
    const q = "What notice period did the 2019 hazardous cargo rules require?";
    const [part] = decompose(q);
    const other = gradePart(
      stateFound(q, ["The 2021 hazardous cargo rules require 48 hours notice; the notice period is 48 hours."]),
      part!,
      0,
      0.5,
    );
    expect(other.sufficient).toBe(false);
    expect(other.missing).toContain("2019");
    const same = gradePart(
      stateFound(q, ["The 2019 hazardous cargo rules require 24 hours notice; the notice period is 24 hours."]),
      part!,
      0,
      0.5,
    );
    expect(same.missing).not.toContain("2019");
  });

  it("goes on with one of several asked periods found", () => {
    const q = "How did the upload cap change across the 2021 and 2022 editions?";
    const [part] = decompose(q);
    const g = gradePart(stateFound(q, ["Upload cap (2021 edition): 15 per second."]), part!, 0, 0.5);
    expect(g.sufficient).toBe(true);
    const none = gradePart(stateFound(q, ["Upload cap (2020 edition): 15 per second."]), part!, 0, 0.5);
    expect(none.missing).toEqual(expect.arrayContaining(["2021", "2022"]));
    expect(none.sufficient).toBe(false);
  });
});

describe("chains: the head of the thing found", () => {
  /** Two hops: the first search found `first`, the second found `second`. */
  function twoHops(question: string, first: string, second: string): AgentState {
    const state = stateFound(question, [first]);
    const hop: EvidenceItem = {
      id: "hop.md::0",
      docId: "hop.md",
      source: "docs",
      title: "Hop",
      text: second,
      score: 0.6,
      step: 2,
      callId: "c2",
    };
    state.evidence.push(hop);
    state.calls.push({
      call: { callId: "c2", tool: "search", args: { query: "hop" }, subQuestion: 0 },
      step: 2,
      status: "ok",
      passageKeys: [passageKey(hop)],
    });
    state.step = 2;
    return state;
  }
  const question = "What is the home country of the founder of Borealis Freight?";
  const first = "Borealis Freight was founded in 1990 by Ilse Marrow as a home delivery firm.";
  it("names the bridges the first search gives, not the question's own names", () => {
    const part = decompose(question)[0]!;
    const names = bridgeNames(part, [{ text: first }], question);
    expect(names).toContain("Ilse Marrow");
    expect(names).not.toContain("Borealis Freight");
  });
  it("is sufficient only when the later hop gives the head of the bridge", () => {
    const part = decompose(question)[0]!;
    const onBridge = twoHops(
      question,
      first,
      "Ilse Marrow was born in Norway, her home country, and founded a company.",
    );
    expect(gradePart(onBridge, part, 0, 0.5, true).sufficient).toBe(true);
    const elsewhere = twoHops(question, first, "Canada is a home country to many founders of freight companies.");
    expect(gradePart(elsewhere, part, 0, 0.5, true).sufficient).toBe(false);
    expect(gradePart(elsewhere, part, 0, 0.5, false).sufficient).toBe(true);
  });
});
