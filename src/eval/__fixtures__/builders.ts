import type { Answer, EvidenceItem } from "../../spec/answer.js";
import type { TraceEvent } from "../../spec/trace.js";
import type { EvalQuestion } from "../schema.js";

/** Builders for hand-made questions, answers and trace events in tests. */

export function question(overrides: Partial<EvalQuestion> = {}): EvalQuestion {
  return {
    id: "q1",
    question: "How long before a refund request times out?",
    type: "single_hop",
    answer: "45 seconds.",
    answer_keywords: [["45 seconds", "45"]],
    gold_sources: ["docs/refunds.md"],
    gold_tools: ["handbook"],
    sub_questions: [],
    min_hops: 1,
    expect_refusal: false,
    ...overrides,
  };
}

export function evidence(docId: string, overrides: Partial<EvidenceItem> = {}): EvidenceItem {
  return {
    id: `${docId}::0`,
    docId,
    source: "handbook",
    text: `Text of ${docId}.`,
    score: 0.5,
    step: 1,
    callId: "c1",
    ...overrides,
  };
}

export function answer(overrides: Partial<Answer> = {}): Answer {
  return {
    status: "answered",
    text: "",
    citations: [],
    stopReason: "answered",
    evidence: [],
    steps: [{ step: 1, toolCalls: [] }],
    stepCount: 1,
    usage: { llmCalls: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 },
    latencyMs: 10,
    runId: "r1",
    traceId: "r1",
    model: "offline",
    ...overrides,
  };
}

export function searchEvents(step: number, corpus: string, docIds: string[], callId = `c${step}`): TraceEvent[] {
  return [
    { type: "tool-call-start", runId: "r1", step, t: 0, call: { callId, tool: "search", args: { corpus, query: "x" } } },
    {
      type: "tool-call-end",
      runId: "r1",
      step,
      t: 1,
      callId,
      tool: "search",
      status: docIds.length > 0 ? "ok" : "no_results",
      passages: docIds.map((docId, i) => ({ id: `${docId}::0`, docId, source: corpus, score: 1 - i / 10 })),
      ms: 1,
    },
  ];
}
