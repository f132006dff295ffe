import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { hashVector } from "../hashing.js";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: { model?: string; input?: string[] };
}

export interface ScriptedFailure {
  status: number;
  headers?: Record<string, string>;
}

export interface EmbeddingsServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: RecordedRequest[];
  /** Failures answered, in order, before any success. */
  failures: ScriptedFailure[];
  /** When set, every request fails with this status. */
  alwaysFail?: number;
  close(): Promise<void>;
}

/**
 * A loopback server speaking the OpenAI embeddings wire format (`POST /v1/embeddings`) and Ollama's
 * (`POST /api/embed`). The vector of a text is `hashVector(text, dimensions)`, so tests can predict it.
 */
export async function startEmbeddingsServer(options: { dimensions?: number } = {}): Promise<EmbeddingsServer> {
  const dimensions = options.dimensions ?? 16;
  const server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (part: string) => {
      raw += part;
    });
    req.on("end", () => {
      const body = raw ? (JSON.parse(raw) as RecordedRequest["body"]) : {};
      state.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const failure = state.alwaysFail !== undefined ? { status: state.alwaysFail } : state.failures.shift();
      if (failure) {
        res.writeHead(failure.status, { "content-type": "application/json", ...failure.headers });
        res.end(JSON.stringify({ error: { message: `scripted ${failure.status}`, type: "server_error" } }));
        return;
      }
      const input = body.input ?? [];
      const vectors = input.map((text) => Array.from(hashVector(text, dimensions)));
      let reply: unknown;
      if (req.method === "POST" && req.url === "/v1/embeddings") {
        reply = {
          object: "list",
          data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
          model: body.model,
          usage: { prompt_tokens: input.length, total_tokens: input.length },
        };
      } else if (req.method === "POST" && req.url === "/api/embed") {
        reply = {
          model: body.model,
          embeddings: vectors,
          total_duration: 1,
          load_duration: 1,
          prompt_eval_count: input.length,
        };
      } else {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const state: EmbeddingsServer = {
    origin: `http://127.0.0.1:${port}`,
    requests: [],
    failures: [],
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return state;
}
