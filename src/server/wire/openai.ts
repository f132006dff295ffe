import type { Answer, StopReason, TraceEvent } from "../../index.js";
import { InvalidInputError } from "../../index.js";
import { type CitationSpan, citationSpans } from "./citations.js";

/** The model name clients send. */
export const OPENAI_MODEL = "ferret";

type Content = string | null | { type: string; text?: string }[];

const textOf = (content: Content): string =>
  typeof content === "string"
    ? content
    : (content ?? [])
        .filter((p) => p.type === "text" && typeof p.text === "string")
        .map((p) => p.text)
        .join("\n");

/**
 * An OpenAI chat body as a question and its history: the last user message asks, earlier user and assistant
 * messages are the history. System and developer messages are not instructions to ferret and are left out.
 */
export function questionOf(messages: { role: string; content: Content }[]): {
  question: string;
  history: { role: "user" | "assistant"; content: string }[];
} {
  let last = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === "user" && textOf(m.content).trim() !== "") {
      last = i;
      break;
    }
  }
  if (last < 0) throw new InvalidInputError("messages holds no user message with text", { field: "messages" });
  const history = messages
    .slice(0, last)
    .filter((m) => m.role === "user" || m.role === "assistant")
    .map((m) => ({ role: m.role as "user" | "assistant", content: textOf(m.content).trim() }))
    .filter((m) => m.content !== "");
  return { question: textOf((messages[last] as { content: Content }).content).trim(), history };
}

const BUDGET = new Set<StopReason>([
  "max_steps",
  "max_tool_calls",
  "token_budget",
  "cost_budget",
  "timeout",
  "spend_cap",
]);
const finishReason = (stop: StopReason) => (BUDGET.has(stop) ? "length" : "stop");

/** The sources block appended to the message: each citation's number, where it is, and its quote. */
export function sourcesBlock(spans: readonly CitationSpan[]): string {
  if (spans.length === 0) return "";
  const lines = spans.map((s) => `[${s.n}] ${s.source}/${s.docId}: "${s.quote.replace(/\s+/g, " ")}"`);
  return `\n\nSources:\n${lines.join("\n")}`;
}

function extra(answer: Answer, spans: CitationSpan[]) {
  return {
    citations: spans,
    ferret: {
      runId: answer.runId,
      status: answer.status,
      stopReason: answer.stopReason,
      ...(answer.reason ? { reason: answer.reason } : {}),
    },
  };
}

const usageOf = (answer: Answer) => ({
  prompt_tokens: answer.usage.inputTokens,
  completion_tokens: answer.usage.outputTokens,
  total_tokens: answer.usage.inputTokens + answer.usage.outputTokens,
});

/** A whole `chat.completion`: the answer with its citation markers and a sources block, citations also apart. */
export function chatCompletion(answer: Answer, created: number) {
  const spans = citationSpans(answer);
  return {
    id: `chatcmpl-${answer.runId}`,
    object: "chat.completion" as const,
    created,
    model: OPENAI_MODEL,
    choices: [
      {
        index: 0,
        message: { role: "assistant" as const, content: answer.text + sourcesBlock(spans) },
        finish_reason: finishReason(answer.stopReason),
      },
    ],
    usage: usageOf(answer),
    ...extra(answer, spans),
  };
}

/** Turns a run's events into `chat.completion.chunk` objects: text as it comes, the sources and finish at the end. */
export function createChunker(created: number) {
  let id = "chatcmpl-pending";
  let sentText = false;
  let sentRole = false;
  const chunk = (delta: Record<string, unknown>, finish: string | null, more: Record<string, unknown> = {}) => ({
    id,
    object: "chat.completion.chunk" as const,
    created,
    model: OPENAI_MODEL,
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...more,
  });
  const content = (text: string) => {
    const delta: Record<string, unknown> = sentRole ? { content: text } : { role: "assistant", content: text };
    sentRole = true;
    return chunk(delta, null);
  };
  return (event: TraceEvent): object[] => {
    if (event.type === "run-start") id = `chatcmpl-${event.runId}`;
    if (event.type === "answer-delta") {
      sentText = true;
      return [content(event.text)];
    }
    if (event.type !== "answer-end") return [];
    const { answer } = event;
    const spans = citationSpans(answer);
    const out: object[] = [];
    const tail = (sentText ? "" : answer.text) + sourcesBlock(spans);
    if (tail !== "") out.push(content(tail));
    out.push(chunk({}, finishReason(answer.stopReason), { usage: usageOf(answer), ...extra(answer, spans) }));
    return out;
  };
}
