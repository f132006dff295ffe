import type { Attributes, Context, Span, SpanOptions, Tracer } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import type { TraceEvent } from "../spec/trace.js";
import { exportRunSpans, spansFromEvents } from "./otel.js";

const base = { runId: "r1" };
const usage = { llmCalls: 1, toolCalls: 2, inputTokens: 120, outputTokens: 30, costUsd: 0.002 };
const events: TraceEvent[] = [
  {
    ...base,
    step: 0,
    t: 0,
    type: "run-start",
    question: "q",
    standaloneQuestion: "q",
    mode: "auto",
    model: "openai:gpt-4o-mini",
  },
  {
    ...base,
    step: 1,
    t: 10,
    type: "tool-call-start",
    call: { callId: "c1", tool: "search", args: { corpus: "docs", query: "x", k: 5 } },
    reads: "passages",
  },
  {
    ...base,
    step: 1,
    t: 11,
    type: "tool-call-start",
    call: { callId: "c2", tool: "list_sources", args: {} },
    reads: "none",
  },
  {
    ...base,
    step: 1,
    t: 30,
    type: "tool-call-end",
    callId: "c1",
    tool: "search",
    status: "timeout",
    passages: [],
    ms: 20,
  },
  {
    ...base,
    step: 1,
    t: 31,
    type: "tool-call-end",
    callId: "c2",
    tool: "list_sources",
    status: "ok",
    passages: [],
    rows: 2,
    ms: 20,
  },
  {
    ...base,
    step: 1,
    t: 90,
    type: "llm-call",
    role: "answerer",
    model: "openai:gpt-4o-mini",
    inputTokens: 120,
    outputTokens: 30,
    costUsd: 0.002,
    ms: 50,
  },
  { ...base, step: 1, t: 95, type: "error", name: "Error", message: "boom" },
  { ...base, step: 1, t: 100, type: "run-end", stopReason: "answered", usage, ms: 100 },
];

describe("spansFromEvents", () => {
  const root = spansFromEvents({ events, startedAt: 1_000 });

  it("maps the run to invoke_agent with gen_ai usage attributes", () => {
    expect(root.name).toBe("invoke_agent ferret");
    expect(root.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "ferret",
      "gen_ai.request.model": "openai:gpt-4o-mini",
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.output_tokens": 30,
      "ferret.stop_reason": "answered",
    });
    expect([root.startMs, root.endMs]).toEqual([1_000, 1_100]);
    expect(root.events?.[0]?.attributes).toMatchObject({ "error.type": "Error" });
  });

  it("maps tool calls to execute_tool with a retrieval child for search, and marks failures", () => {
    const [search, list, chat] = root.children;
    expect(search).toMatchObject({ name: "execute_tool search", startMs: 1_010, endMs: 1_030, error: "timeout" });
    expect(search?.attributes).toMatchObject({
      "gen_ai.tool.name": "search",
      "gen_ai.tool.call.id": "c1",
      "ferret.tool.status": "timeout",
    });
    expect(search?.children[0]).toMatchObject({
      name: "retrieval docs",
      attributes: { "gen_ai.operation.name": "retrieval", "gen_ai.data_source.id": "docs" },
    });
    expect(list?.children).toEqual([]);
    expect(list?.attributes).toMatchObject({ "ferret.tool.rows": 2 });
    expect(chat).toMatchObject({ name: "chat openai:gpt-4o-mini", startMs: 1_040, endMs: 1_090 });
    expect(chat?.attributes).toMatchObject({ "gen_ai.provider.name": "openai", "gen_ai.usage.input_tokens": 120 });
  });
});

describe("exportRunSpans", () => {
  it("creates nested spans through the tracer it is given", () => {
    const spans: { name: string; attributes?: Attributes; ended?: unknown; status?: number }[] = [];
    const tracer = {
      startSpan(name: string, options: SpanOptions, _ctx?: Context): Span {
        const record: (typeof spans)[number] = { name, attributes: options.attributes };
        spans.push(record);
        const span = {
          spanContext: () => ({
            traceId: "0".repeat(32),
            spanId: String(spans.length).padStart(16, "0"),
            traceFlags: 1,
          }),
          setAttribute: () => span,
          setAttributes: () => span,
          addEvent: () => span,
          addLink: () => span,
          addLinks: () => span,
          setStatus: (s: { code: number }) => {
            record.status = s.code;
            return span;
          },
          updateName: () => span,
          end: (t?: unknown) => {
            record.ended = t;
          },
          isRecording: () => true,
          recordException: () => {},
        } as unknown as Span;
        return span;
      },
    } as unknown as Tracer;
    exportRunSpans({ events, startedAt: 1_000, tracer });
    expect(spans.map((s) => s.name)).toEqual([
      "invoke_agent ferret",
      "execute_tool search",
      "retrieval docs",
      "execute_tool list_sources",
      "chat openai:gpt-4o-mini",
    ]);
    expect(spans.every((s) => s.ended !== undefined)).toBe(true);
    expect(spans[1]?.status).toBe(2);
  });
});
