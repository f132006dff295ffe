import { describe, expect, it } from "vitest";
import type { Answer } from "../spec/answer.js";
import type { TraceEvent } from "../spec/trace.js";
import { answer, question, searchEvents } from "./__fixtures__/builders.js";
import { attributeFailure } from "./attribution.js";
import { rankedEvidence } from "./metrics/ranked-evidence.js";
import { searchedSources } from "./metrics/tool-selection.js";
import type { EvalQuestion } from "./schema.js";
import { scoreQuestion } from "./score-question.js";

const NAMES = ["handbook", "orders"];
const route = (r: "none" | "rag" | "agentic"): TraceEvent => ({
  type: "route",
  runId: "r",
  step: 0,
  t: 0,
  route: r,
  reason: "",
});
const grade = (sufficient: boolean): TraceEvent => ({
  type: "grade",
  runId: "r",
  step: 1,
  t: 0,
  sufficient,
  threshold: 0.6,
  subQuestions: [],
});

function attribute(q: EvalQuestion, a: Answer, events: TraceEvent[]) {
  const metrics = scoreQuestion({ question: q, answer: a, events, sourceNames: NAMES });
  return attributeFailure({
    question: q,
    answer: a,
    events,
    metrics,
    searched: searchedSources(a, events, NAMES),
    retrieved: rankedEvidence(a, events).map((u) => u.id),
  });
}

describe("attributeFailure", () => {
  it("is null for a correct answer", () => {
    expect(attribute(question(), answer({ text: "45 seconds" }), [])).toBeNull();
  });

  it("blames the router for skipping needed retrieval, or retrieving needlessly", () => {
    expect(attribute(question(), answer({ text: "no idea" }), [route("none")])?.stage).toBe("router");
    const greeting = question({
      type: "no_retrieval",
      gold_sources: [],
      gold_tools: [],
      min_hops: 0,
      answer_keywords: [["help"]],
    });
    const events = [route("rag"), ...searchEvents(1, "handbook", ["docs/oncall.md"])];
    expect(attribute(greeting, answer({ text: "Hello." }), events)?.stage).toBe("router");
  });

  it("blames the planner when the gold source was never searched", () => {
    const f = attribute(question(), answer({ text: "unknown" }), [route("agentic"), ...searchEvents(1, "orders", [])]);
    expect(f).toMatchObject({ stage: "planner" });
    expect(f?.reason).toContain("handbook");
  });

  it("blames the retriever when the source was searched but gold never came back", () => {
    const events = [route("agentic"), ...searchEvents(1, "handbook", ["docs/oncall.md"])];
    const f = attribute(question(), answer({ text: "unknown" }), events);
    expect(f).toMatchObject({ stage: "retriever" });
    expect(f?.reason).toContain("docs/refunds.md");
  });

  it("blames the evaluator for refusing or stopping short with gold in hand", () => {
    const events = [route("agentic"), ...searchEvents(1, "handbook", ["docs/refunds.md"]), grade(false)];
    const refused = answer({ status: "refused", stopReason: "insufficient_evidence" });
    expect(attribute(question(), refused, events)?.stage).toBe("evaluator");
    const partial = answer({ status: "partial", text: "unclear", stopReason: "max_steps" });
    expect(attribute(question(), partial, events)?.stage).toBe("evaluator");
  });

  it("blames the answerer when gold was retrieved and graded sufficient but the answer is wrong", () => {
    const events = [route("agentic"), ...searchEvents(1, "handbook", ["docs/refunds.md"]), grade(true)];
    const f = attribute(question(), answer({ text: "180 days" }), events);
    expect(f).toMatchObject({ stage: "answerer" });
    expect(f?.reason).toContain("45 seconds | 45");
  });

  it("handles questions that must be refused", () => {
    const q = question({ type: "unanswerable", expect_refusal: true, gold_sources: [], answer_keywords: [] });
    const events = [route("agentic"), ...searchEvents(1, "handbook", ["docs/refunds.md"])];
    expect(attribute(q, answer({ text: "2%" }), [...events, grade(true)])?.stage).toBe("evaluator");
    expect(attribute(q, answer({ text: "2%" }), [...events, grade(false)])?.stage).toBe("answerer");
  });

  it("flags a correct refusal that leaks", () => {
    const q = question({
      type: "acl",
      expect_refusal: true,
      gold_sources: [],
      answer_keywords: [],
      must_not_contain: ["9900"],
    });
    const f = attribute(q, answer({ status: "refused", text: "I cannot share that 9900." }), []);
    expect(f?.stage).toBe("answerer");
  });
});
