import { describe, expect, it } from "vitest";
import type { RunRecord } from "../spec/store.js";
import type { TraceEvent } from "../spec/trace.js";
import { createEventFormatter, formatEvent, formatTrace } from "./format.js";

const base = { runId: "r1" };
const usage = { llmCalls: 2, toolCalls: 1, inputTokens: 300, outputTokens: 40, costUsd: 0.0012 };
const events: TraceEvent[] = [
  {
    ...base,
    step: 0,
    t: 0,
    type: "run-start",
    question: "refund timeout?",
    standaloneQuestion: "refund timeout?",
    mode: "auto",
    model: "offline",
  },
  { ...base, step: 0, t: 3, type: "route", route: "agentic", reason: "needs search" },
  { ...base, step: 1, t: 5, type: "plan", thought: "search the API docs", subQuestions: [], calls: [] },
  {
    ...base,
    step: 1,
    t: 6,
    type: "tool-call-start",
    call: { callId: "c1", tool: "search", args: { corpus: "api_docs", query: "refund timeout" } },
  },
  {
    ...base,
    step: 1,
    t: 40,
    type: "tool-call-end",
    callId: "c1",
    tool: "search",
    status: "ok",
    passages: [{ id: "p", docId: "d", source: "api_docs", score: 0.82 }],
    best: 0.82,
    ms: 34,
  },
  {
    ...base,
    step: 1,
    t: 50,
    type: "llm-call",
    role: "grader",
    model: "openai:gpt-4o-mini",
    inputTokens: 300,
    outputTokens: 40,
    costUsd: 0.0012,
    ms: 900,
  },
  { ...base, step: 1, t: 60, type: "run-end", stopReason: "evidence_sufficient", usage, ms: 1600 },
];

describe("formatEvent", () => {
  it("renders a search live on one line with what was searched and found", () => {
    const format = createEventFormatter();
    const lines = events.map(format);
    expect(lines[3]).toBe("searching api_docs for 'refund timeout' …");
    expect(lines[4]).toBe("searching api_docs for 'refund timeout' … 1 passages, best 0.82 (34 ms)");
    expect(lines[6]).toContain("done: evidence_sufficient in 1.6 s");
  });

  it("shows a failed call's status and hint", () => {
    const line = formatEvent({
      ...base,
      step: 1,
      t: 1,
      type: "tool-call-end",
      callId: "c",
      tool: "search",
      status: "rate_limited",
      passages: [],
      hint: "retry after 100 ms",
      ms: 2,
    });
    expect(line).toBe("search … rate limited: retry after 100 ms (2 ms)");
  });
});

describe("formatTrace", () => {
  it("lists events with times and a summary of stop reason, timings, tokens and cost", () => {
    const record: RunRecord = {
      runId: "r1",
      tenant: "default",
      user: "ann",
      question: "refund timeout?",
      startedAt: "2024-01-01T00:00:00.000Z",
      events,
    };
    const text = formatTrace(record);
    expect(text).toContain("run r1  2024-01-01T00:00:00.000Z  default/ann");
    expect(text).toContain("   +40 ms  [1]  searching api_docs for 'refund timeout' … 1 passages, best 0.82 (34 ms)");
    expect(text).toContain("grader openai:gpt-4o-mini: 300 in / 40 out tokens, $0.0012, 900 ms");
    expect(text).toContain("stop reason: evidence_sufficient");
    expect(text).toContain("usage: 2 LLM calls, 1 tool calls, 340 tokens (300 in / 40 out), $0.0012");
  });

  it("says when a run did not finish", () => {
    const text = formatTrace({
      runId: "r",
      tenant: "t",
      user: "u",
      question: "q",
      startedAt: "x",
      events: events.slice(0, 2),
    });
    expect(text).toContain("the run did not finish");
  });
});
