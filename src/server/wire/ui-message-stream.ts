import type { UIMessageChunk } from "ai";
import type { Answer, CheckpointRequest, StopReason, TraceEvent } from "../../index.js";
import { citationSpans } from "./citations.js";

/** What the adapter remembers across events of one run. */
export interface UiStreamState {
  textOpen: boolean;
  textSent: boolean;
  checkpoints: number;
  decided: number;
}

export const newUiStreamState = (): UiStreamState => ({ textOpen: false, textSent: false, checkpoints: 0, decided: 0 });

const TEXT_ID = "answer";
const BUDGET_STOPS = new Set<StopReason>([
  "max_steps",
  "max_tool_calls",
  "token_budget",
  "cost_budget",
  "timeout",
  "spend_cap",
]);

/** The finish reason of the AI SDK for a stop reason (ferret's own goes in the message metadata). */
function finishReason(stop: StopReason): "stop" | "length" | "other" {
  if (BUDGET_STOPS.has(stop)) return "length";
  return stop === "aborted" ? "other" : "stop";
}

const mediaType = (docId: string) =>
  /\.md$/i.test(docId)
    ? "text/markdown"
    : /\.html?$/i.test(docId)
      ? "text/html"
      : /\.pdf$/i.test(docId)
        ? "application/pdf"
        : "text/plain";

function answerChunks(answer: Answer, state: UiStreamState): UIMessageChunk[] {
  const out: UIMessageChunk[] = [];
  if (!state.textSent && answer.text !== "") {
    out.push({ type: "text-start", id: TEXT_ID }, { type: "text-delta", id: TEXT_ID, delta: answer.text });
    state.textOpen = true;
  }
  if (state.textOpen) out.push({ type: "text-end", id: TEXT_ID });
  state.textOpen = false;
  state.textSent = true;
  for (const c of citationSpans(answer)) {
    out.push({
      type: "source-document",
      sourceId: `${c.source}:${c.passageId}`,
      mediaType: mediaType(c.docId),
      title: c.title ?? c.docId,
      filename: c.docId,
    });
    out.push({ type: "data-citation", id: `citation-${c.n}-${c.passageId}`, data: c });
  }
  out.push({
    type: "data-answer",
    data: {
      runId: answer.runId,
      status: answer.status,
      stopReason: answer.stopReason,
      ...(answer.reason ? { reason: answer.reason } : {}),
      ...(answer.unsupported ? { unsupported: answer.unsupported } : {}),
      stepCount: answer.stepCount,
      usage: answer.usage,
      latencyMs: answer.latencyMs,
      model: answer.model,
    },
  });
  return out;
}

/**
 * The UI message stream parts of one trace event (AI SDK protocol v1): the run as `start` and `data-run`,
 * each tool call as dynamic tool input and output parts, the answer as text with each verified citation a
 * `source-document` plus a `data-citation` (passage id, quote, offsets), the steps as `data-step`, the end
 * as `finish` with ferret's stop reason in the message metadata.
 */
export function uiChunks(event: TraceEvent, state: UiStreamState): UIMessageChunk[] {
  switch (event.type) {
    case "run-start":
      return [
        { type: "start", messageId: event.runId, messageMetadata: { runId: event.runId } },
        {
          type: "data-run",
          data: {
            runId: event.runId,
            standaloneQuestion: event.standaloneQuestion,
            mode: event.mode,
            model: event.model,
          },
        },
      ];
    case "route":
      return [
        {
          type: "data-step",
          data: { type: "route", step: event.step, t: event.t, route: event.route, reason: event.reason },
        },
      ];
    case "plan":
      return [
        {
          type: "data-step",
          data: {
            type: "plan",
            step: event.step,
            t: event.t,
            thought: event.thought,
            subQuestions: event.subQuestions,
          },
        },
      ];
    case "tool-call-start":
      // Probes (routing and name checks, many per run) stay in the stored trace and the run timeline; as tool
      // parts they would bury the searches that gathered the evidence.
      if (event.call.purpose === "probe") return [];
      return [
        {
          type: "tool-input-available",
          toolCallId: event.call.callId,
          toolName: event.call.tool,
          input: event.call.args,
          dynamic: true,
        },
      ];
    case "tool-call-end":
      if (event.purpose === "probe") return [];
      return [
        {
          type: "tool-output-available",
          toolCallId: event.callId,
          dynamic: true,
          output: {
            status: event.status,
            passages: event.passages,
            ...(event.rows !== undefined ? { rows: event.rows } : {}),
            ...(event.best !== undefined ? { best: event.best } : {}),
            ...(event.cached ? { cached: true } : {}),
            ...(event.hint ? { hint: event.hint } : {}),
            ms: event.ms,
            step: event.step,
            t: event.t,
          },
        },
      ];
    case "grade":
      return [
        {
          type: "data-step",
          data: {
            type: "grade",
            step: event.step,
            t: event.t,
            sufficient: event.sufficient,
            threshold: event.threshold,
            subQuestions: event.subQuestions,
          },
        },
      ];
    case "checkpoint":
      return [
        {
          type: "data-checkpoint",
          id: `checkpoint-${++state.decided}`,
          data: {
            state: "decided",
            checkpoint: event.checkpoint,
            decision: event.decision ?? "continue",
            step: event.step,
          },
        },
      ];
    case "llm-call":
      return [
        {
          type: "data-step",
          data: {
            type: "llm-call",
            step: event.step,
            t: event.t,
            role: event.role,
            model: event.model,
            inputTokens: event.inputTokens,
            outputTokens: event.outputTokens,
            costUsd: event.costUsd,
            ms: event.ms,
          },
        },
      ];
    case "answer-draft-delta":
      return []; // the checked answer's deltas follow
    case "answer-delta": {
      const out: UIMessageChunk[] = [];
      if (!state.textOpen) out.push({ type: "text-start", id: TEXT_ID });
      state.textOpen = true;
      state.textSent = true;
      out.push({ type: "text-delta", id: TEXT_ID, delta: event.text });
      return out;
    }
    case "answer-end":
      return answerChunks(event.answer, state);
    case "error":
      // A step that failed and was worked around: the run goes on, so it is a step, not a stream error.
      return [
        {
          type: "data-step",
          data: { type: "error", step: event.step, t: event.t, name: event.name, message: event.message },
        },
      ];
    case "run-end":
      return [
        {
          type: "finish",
          finishReason: finishReason(event.stopReason),
          messageMetadata: { runId: event.runId, stopReason: event.stopReason, usage: event.usage, ms: event.ms },
        },
      ];
  }
}

/** The part announcing a paused run: a client answers it with `POST /v1/runs/{runId}/decision`. */
export function checkpointWaitingChunk(
  request: CheckpointRequest,
  timeoutMs: number,
  state: UiStreamState,
): UIMessageChunk {
  return {
    type: "data-checkpoint",
    id: `checkpoint-${++state.checkpoints}`,
    data: {
      state: "waiting",
      runId: request.runId,
      checkpoint: request.kind,
      step: request.step,
      toolCalls: request.toolCalls,
      evidence: request.evidence.length,
      timeoutMs,
      actions: ["continue", "answer_now", "rephrase", "stop"],
    },
  };
}
