import { type Attributes, context, SpanKind, SpanStatusCode, type Tracer, trace } from "@opentelemetry/api";
import type { ToolCallRequest, TraceEvent } from "../spec/trace.js";

export const AGENT_NAME = "ferret";
const TRACER_NAME = "ferret";

/** One span to create, computed from the trace events (pure, so the mapping is testable without an SDK). */
export interface SpanSpec {
  name: string;
  kind: SpanKind;
  /** Epoch milliseconds. */
  startMs: number;
  endMs: number;
  attributes: Attributes;
  /** Set for a failed operation: becomes the span's error status and `error.type`. */
  error?: string;
  events?: { name: string; atMs: number; attributes: Attributes }[];
  children: SpanSpec[];
}

type Of<K extends TraceEvent["type"]> = Extract<TraceEvent, { type: K }>;

const FAILED_TOOL = new Set(["error", "timeout", "rate_limited", "denied"]);

/** `chat <model>` attributes for one engine call. */
export function llmCallAttributes(e: Of<"llm-call">): Attributes {
  const provider = e.model.includes(":") ? e.model.slice(0, e.model.indexOf(":")) : e.model;
  return {
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": provider,
    "gen_ai.request.model": e.model,
    "gen_ai.usage.input_tokens": e.inputTokens,
    "gen_ai.usage.output_tokens": e.outputTokens,
    "ferret.role": e.role,
    "ferret.cost_usd": e.costUsd,
    "ferret.step": e.step,
  };
}

/** `execute_tool <name>` attributes (arguments are not recorded: they may hold user text). */
export function toolCallAttributes(
  start: ToolCallRequest,
  end: Of<"tool-call-end"> | undefined,
  step: number,
): Attributes {
  return {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": start.tool,
    "gen_ai.tool.call.id": start.callId,
    "gen_ai.tool.type": "function",
    "ferret.step": step,
    ...(end ? { "ferret.tool.status": end.status, "ferret.tool.passages": end.passages.length } : {}),
    ...(end?.best !== undefined ? { "ferret.tool.best_score": end.best } : {}),
    ...(end?.rows !== undefined ? { "ferret.tool.rows": end.rows } : {}),
  };
}

/** `invoke_agent` attributes from the run's first and last events. */
export function agentAttributes(start: Of<"run-start"> | undefined, end: Of<"run-end"> | undefined): Attributes {
  return {
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.agent.name": AGENT_NAME,
    ...(start
      ? { "gen_ai.agent.id": start.runId, "gen_ai.request.model": start.model, "ferret.mode": start.mode }
      : {}),
    ...(end
      ? {
          "gen_ai.usage.input_tokens": end.usage.inputTokens,
          "gen_ai.usage.output_tokens": end.usage.outputTokens,
          "ferret.stop_reason": end.stopReason,
          "ferret.llm_calls": end.usage.llmCalls,
          "ferret.tool_calls": end.usage.toolCalls,
          "ferret.cost_usd": end.usage.costUsd,
        }
      : {}),
  };
}

/** The span tree of a run: invoke_agent with execute_tool (and retrieval inside search tools) and chat children. */
export function spansFromEvents(options: { events: readonly TraceEvent[]; startedAt: number }): SpanSpec {
  const { events, startedAt } = options;
  const at = (t: number) => startedAt + t;
  const first = events.find((e): e is Of<"run-start"> => e.type === "run-start");
  const last = events.findLast((e): e is Of<"run-end"> => e.type === "run-end");
  const ends = new Map<string, Of<"tool-call-end">>();
  for (const e of events) if (e.type === "tool-call-end") ends.set(e.callId, e);
  const endMs = at(events.at(-1)?.t ?? 0);
  const root: SpanSpec = {
    name: `invoke_agent ${AGENT_NAME}`,
    kind: SpanKind.INTERNAL,
    startMs: at(0),
    endMs,
    attributes: agentAttributes(first, last),
    events: [],
    children: [],
  };
  if (last && (last.stopReason === "aborted" || last.stopReason === "fallback")) root.error = last.stopReason;
  for (const e of events) {
    if (e.type === "llm-call") {
      root.children.push({
        name: `chat ${e.model}`,
        kind: SpanKind.CLIENT,
        startMs: at(Math.max(0, e.t - e.ms)),
        endMs: at(e.t),
        attributes: llmCallAttributes(e),
        children: [],
      });
    } else if (e.type === "tool-call-start") {
      const end = ends.get(e.call.callId);
      const span: SpanSpec = {
        name: `execute_tool ${e.call.tool}`,
        kind: SpanKind.INTERNAL,
        startMs: at(e.t),
        endMs: at(end?.t ?? e.t),
        attributes: toolCallAttributes(e.call, end, e.step),
        ...(end && FAILED_TOOL.has(end.status) ? { error: end.status } : {}),
        ...(end === undefined ? { error: "unfinished" } : {}),
        children: [],
      };
      // The tool's own declaration says whether the call retrieved passages (see `Tool.reads`).
      if (e.reads === "passages") {
        const corpus = typeof e.call.args.corpus === "string" ? e.call.args.corpus : undefined;
        span.children.push({
          name: corpus ? `retrieval ${corpus}` : "retrieval",
          kind: SpanKind.CLIENT,
          startMs: span.startMs,
          endMs: span.endMs,
          attributes: {
            "gen_ai.operation.name": "retrieval",
            ...(corpus ? { "gen_ai.data_source.id": corpus } : {}),
            ...(typeof e.call.args.k === "number" ? { "gen_ai.request.top_k": e.call.args.k } : {}),
            "ferret.retrieval.passages": end?.passages.length ?? 0,
          },
          children: [],
        });
      }
      root.children.push(span);
    } else if (e.type === "error") {
      root.events?.push({
        name: "ferret.error",
        atMs: at(e.t),
        attributes: { "error.type": e.name, message: e.message },
      });
    }
  }
  return root;
}

/** Creates the run's spans through `@opentelemetry/api` (a no-op unless an SDK is registered). */
export function exportRunSpans(options: { events: readonly TraceEvent[]; startedAt: number; tracer?: Tracer }): void {
  const tracer = options.tracer ?? trace.getTracer(TRACER_NAME);
  emit(tracer, spansFromEvents(options), context.active());
}

function emit(tracer: Tracer, spec: SpanSpec, parent: ReturnType<typeof context.active>): void {
  const span = tracer.startSpan(
    spec.name,
    { kind: spec.kind, startTime: spec.startMs, attributes: spec.attributes },
    parent,
  );
  for (const event of spec.events ?? []) span.addEvent(event.name, event.attributes, event.atMs);
  if (spec.error !== undefined) {
    span.setAttribute("error.type", spec.error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: spec.error });
  }
  const child = trace.setSpan(parent, span);
  for (const c of spec.children) emit(tracer, c, child);
  span.end(spec.endMs);
}
