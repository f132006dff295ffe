/**
 * A loopback HTTP server that answers each request with the next scripted response and records what it
 * was sent. Used for OpenAI-compatible chat completions and, with recorded bodies, the Anthropic API.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ScriptedResponse =
  | { status?: number; headers?: Record<string, string>; json: unknown }
  | { status?: number; headers?: Record<string, string>; text: string }
  /** Server-sent events: each item is sent as one `data:` line (objects as JSON), then `data: [DONE]`. */
  | { sse: (string | object)[]; done?: boolean }
  /** Accept the request and never answer. */
  | { hang: true };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON when the body is JSON, else the raw text. */
  body: unknown;
}

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  push(...responses: ScriptedResponse[]): void;
  /** Scripted responses not yet served. */
  pending(): number;
  close(): Promise<void>;
}

function send(res: ServerResponse, scripted: ScriptedResponse): void {
  if ("hang" in scripted) return;
  if ("sse" in scripted) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const item of scripted.sse) res.write(`data: ${typeof item === "string" ? item : JSON.stringify(item)}\n\n`);
    if (scripted.done !== false) res.write("data: [DONE]\n\n");
    res.end();
    return;
  }
  const isJson = "json" in scripted;
  const body = isJson ? JSON.stringify(scripted.json) : scripted.text;
  res.writeHead(scripted.status ?? 200, {
    "content-type": isJson ? "application/json" : "text/plain",
    ...scripted.headers,
  });
  res.end(body);
}

export async function startScriptedServer(options: { responses?: ScriptedResponse[] } = {}): Promise<ScriptedServer> {
  const queue: ScriptedResponse[] = [...(options.responses ?? [])];
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        // keep the raw text
      }
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const next = queue.shift();
      if (!next) {
        send(res, { status: 500, json: { error: { message: "no scripted response left", type: "test_error" } } });
        return;
      }
      send(res, next);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    push: (...responses) => queue.push(...responses),
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let counter = 0;

/** A chat.completion response with text and/or tool calls (arguments passed through verbatim). */
export function chatCompletion(options: {
  content?: string | null;
  toolCalls?: { name: string; arguments: string }[];
  usage?: { prompt_tokens: number; completion_tokens: number };
  model?: string;
}): ScriptedResponse {
  return { json: chatCompletionBody(options) };
}

/** The body of a chat.completion. */
export function chatCompletionBody(options: {
  content?: string | null;
  toolCalls?: { name: string; arguments: string }[];
  usage?: { prompt_tokens: number; completion_tokens: number };
  model?: string;
}): Record<string, unknown> {
  counter += 1;
  const toolCalls = options.toolCalls?.map((call, i) => ({
    id: `call_${counter}_${i}`,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
  const usage = options.usage ?? { prompt_tokens: 100, completion_tokens: 20 };
  return {
    id: `chatcmpl-${counter}`,
    object: "chat.completion",
    created: 1_700_000_000 + counter,
    model: options.model ?? "test-model",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: options.content ?? null, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
        finish_reason: toolCalls ? "tool_calls" : "stop",
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** An OpenAI-style error body with a status (and optional headers such as Retry-After). */
export function chatError(status: number, message: string, headers?: Record<string, string>): ScriptedResponse {
  return { status, headers, json: { error: { message, type: status === 429 ? "rate_limit_exceeded" : "server_error" } } };
}
