import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { createUIMessageStreamResponse, type UIMessageChunk } from "ai";
import { InvalidInputError } from "../../index.js";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import type { RunRequest } from "../run-service.js";
import { AnswerSchema, AskBodySchema, StreamBodySchema } from "../schemas.js";
import { checkpointWaitingChunk, newUiStreamState, uiChunks } from "../wire/ui-message-stream.js";
import { ERRORS, json, SECURITY } from "./common.js";

type StreamBody = z.infer<typeof StreamBodySchema>;

/** The text of a UI message: its text parts joined. */
function textOf(message: { parts: { type: string; text?: string }[] }): string {
  return message.parts
    .filter((p) => p.type === "text" && typeof p.text === "string")
    .map((p) => p.text)
    .join("\n")
    .trim();
}

/** An ask body as is; `useChat`'s body as its last user message (the question) and the turns before it. */
export function runRequestOf(body: StreamBody): RunRequest {
  const common = {
    ...(body.sessionId ? { sessionId: body.sessionId } : {}),
    ...(body.mode ? { mode: body.mode } : {}),
    ...(body.preset ? { preset: body.preset } : {}),
    ...(body.budgets ? { budgets: body.budgets } : {}),
    ...(body.checkpoints ? { checkpoints: body.checkpoints } : {}),
  };
  if (!("messages" in body) || !Array.isArray(body.messages)) {
    const ask = body as z.infer<typeof AskBodySchema>;
    return { ...common, question: ask.question, ...(ask.history ? { history: ask.history } : {}) };
  }
  const messages = body.messages;
  let last = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === "user" && textOf(messages[i] as (typeof messages)[number]) !== "") {
      last = i;
      break;
    }
  }
  if (last < 0) throw new InvalidInputError("messages holds no user message with text", { field: "messages" });
  const question = textOf(messages[last] as (typeof messages)[number]);
  // With a stored session the server's own history counts, not what the client sends.
  const history = body.sessionId
    ? undefined
    : messages
        .slice(0, last)
        .filter((m) => m.role === "user" || m.role === "assistant")
        .map((m) => ({ role: m.role as "user" | "assistant", content: textOf(m) }))
        .filter((m) => m.content !== "");
  return { ...common, question, ...(history && history.length > 0 ? { history } : {}) };
}

const askRoute = createRoute({
  method: "post",
  path: "/v1/ask",
  summary: "Ask a question; the answer with verified citations, as `ferret ask --json` prints it",
  security: SECURITY,
  request: { body: { content: { "application/json": { schema: AskBodySchema } }, required: true } },
  responses: { 200: json(AnswerSchema, "The answer (or refusal) with its stop reason and run id"), ...ERRORS },
});

const streamRoute = createRoute({
  method: "post",
  path: "/v1/ask/stream",
  summary: "Ask and stream the run in the AI SDK UI message stream protocol (useChat works unchanged)",
  description:
    "Server-sent events with `x-vercel-ai-ui-message-stream: v1`: `start`, tool input/output parts per search, " +
    "`data-step` per step, text deltas, a `source-document` and a `data-citation` (passage id, quote, offsets) per " +
    "verified citation, `data-answer`, `finish` with the stop reason in the message metadata, then `[DONE]`. A client " +
    "that disconnects aborts the run.",
  security: SECURITY,
  request: { body: { content: { "application/json": { schema: StreamBodySchema } }, required: true } },
  responses: {
    200: { description: "The UI message stream", content: { "text/event-stream": { schema: z.string() } } },
    ...ERRORS,
  },
});

export function askRoutes(app: OpenAPIHono<ServerEnv>, deps: ServerDeps): void {
  app.openapi(askRoute, async (c) => {
    const body = c.req.valid("json");
    const signal = c.req.raw.signal;
    const answer = await deps.limiter.run(() => deps.runs.ask(c.get("caller"), runRequestOf(body), { signal }), signal);
    return c.json(answer, 200);
  });

  app.openapi(streamRoute, async (c) => {
    const request = runRequestOf(c.req.valid("json"));
    const release = await deps.limiter.acquire(c.req.raw.signal);
    const state = newUiStreamState();
    const cancel = new AbortController();
    let cancelled = false;
    let controller: ReadableStreamDefaultController<UIMessageChunk> | undefined;
    const early: UIMessageChunk[] = [];
    const push = (chunk: UIMessageChunk) => {
      if (cancelled) return;
      if (controller) controller.enqueue(chunk);
      else early.push(chunk);
    };
    let events: AsyncGenerator<import("../../index.js").TraceEvent>;
    try {
      events = await deps.runs.start(c.get("caller"), request, {
        signal: AbortSignal.any([c.req.raw.signal, cancel.signal]),
        onCheckpointWaiting: (waiting, timeoutMs) => push(checkpointWaitingChunk(waiting, timeoutMs, state)),
      });
    } catch (error) {
      release();
      throw error;
    }
    const log = c.get("log");
    const stream = new ReadableStream<UIMessageChunk>({
      start(ctrl) {
        controller = ctrl;
        for (const chunk of early.splice(0)) ctrl.enqueue(chunk);
        void (async () => {
          try {
            // Read to the end even after the client left: the run is aborted, then saved and counted.
            for await (const event of events) for (const chunk of uiChunks(event, state)) push(chunk);
            if (!cancelled) ctrl.close();
          } catch (error) {
            log.error({ err: error }, "the run's stream failed");
            if (!cancelled) {
              ctrl.enqueue({ type: "error", errorText: "The run failed on the server; its log has the details." });
              ctrl.close();
            }
          } finally {
            release();
          }
        })();
      },
      cancel(reason) {
        cancelled = true;
        cancel.abort(reason ?? new Error("the client went away"));
      },
    });
    return createUIMessageStreamResponse({ stream, keepAliveMs: 15_000 });
  });
}
