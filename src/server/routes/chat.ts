import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { InvalidInputError, type TraceEvent } from "../../index.js";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { ChatCompletionBodySchema } from "../schemas.js";
import { chatCompletion, createChunker, OPENAI_MODEL, questionOf } from "../wire/openai.js";
import { ERRORS, SECURITY } from "./common.js";

const chatRoute = createRoute({
  method: "post",
  path: "/v1/chat/completions",
  summary: "OpenAI-compatible chat (model `ferret`), streaming or not; citations in the message and in `citations`",
  security: SECURITY,
  request: { body: { content: { "application/json": { schema: ChatCompletionBodySchema } }, required: true } },
  responses: {
    200: {
      description: "A chat.completion, or chat.completion.chunk server-sent events ending with [DONE]",
      content: {
        "application/json": { schema: z.object({ id: z.string(), object: z.string() }).passthrough() },
        "text/event-stream": { schema: z.string() },
      },
    },
    ...ERRORS,
  },
});

export function chatRoutes(app: OpenAPIHono<ServerEnv>, deps: ServerDeps): void {
  app.openapi(chatRoute, async (c) => {
    const body = c.req.valid("json");
    if (body.model !== OPENAI_MODEL)
      throw new InvalidInputError(`model must be "${OPENAI_MODEL}", got "${body.model}"`, { field: "model" });
    const request = questionOf(body.messages);
    const caller = c.get("caller");
    const created = Math.floor(Date.now() / 1000);
    const signal = c.req.raw.signal;
    if (!body.stream) {
      const answer = await deps.limiter.run(() => deps.runs.ask(caller, request, { signal }), signal);
      return c.json(chatCompletion(answer, created), 200);
    }
    const release = await deps.limiter.acquire(signal);
    const cancel = new AbortController();
    let events: AsyncGenerator<TraceEvent>;
    try {
      events = await deps.runs.start(caller, request, { signal: AbortSignal.any([signal, cancel.signal]) });
    } catch (error) {
      release();
      throw error;
    }
    const toChunks = createChunker(created);
    const encoder = new TextEncoder();
    let cancelled = false;
    const log = c.get("log");
    const stream = new ReadableStream<Uint8Array>({
      start(ctrl) {
        const send = (data: string) => {
          if (!cancelled) ctrl.enqueue(encoder.encode(`data: ${data}\n\n`));
        };
        void (async () => {
          try {
            for await (const event of events) for (const chunk of toChunks(event)) send(JSON.stringify(chunk));
            send("[DONE]");
          } catch (error) {
            log.error({ err: error }, "the chat stream failed");
            send(JSON.stringify({ error: { message: "The run failed on the server.", type: "server_error" } }));
          } finally {
            release();
            if (!cancelled) ctrl.close();
          }
        })();
      },
      cancel(reason) {
        cancelled = true;
        cancel.abort(reason ?? new Error("the client went away"));
      },
    });
    return new Response(stream, {
      status: 200,
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" },
    });
  });
}
