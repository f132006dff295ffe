import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidInputError, UpstreamError } from "../spec/errors.js";
import { type EmbeddingsServer, startEmbeddingsServer } from "./__fixtures__/embeddings-server.js";
import { hashVector } from "./hashing.js";
import { resolveEmbedder } from "./resolve.js";

let server: EmbeddingsServer;
let sleeps: number[];
const sleep = async (ms: number) => {
  sleeps.push(ms);
};

beforeEach(async () => {
  server = await startEmbeddingsServer({ dimensions: 16 });
  sleeps = [];
});
afterEach(async () => {
  await server.close();
});

function openai(extra: { batchSize?: number; maxRetries?: number } = {}) {
  return resolveEmbedder({
    spec: "openai:text-embedding-3-small",
    baseUrl: `${server.origin}/v1`,
    apiKey: "sk-test",
    env: {},
    batchSize: extra.batchSize,
    retry: { sleep, initialDelayMs: 100, maxRetries: extra.maxRetries },
  });
}

const texts = (n: number) => Array.from({ length: n }, (_, i) => `text number ${i}`);

describe("resolveEmbedder: specs without a model", () => {
  it("gives no embedder for none or nothing", async () => {
    expect(await resolveEmbedder({})).toBeUndefined();
    expect(await resolveEmbedder({ spec: "none" })).toBeUndefined();
  });

  it("gives the hashing embedder for hash:<dims>", async () => {
    const embedder = await resolveEmbedder({ spec: "hash:32" });
    expect(embedder?.id).toBe("hash:32");
    expect(embedder?.dimensions()).toBe(32);
  });

  it("rejects unknown providers and malformed specs with a readable error", async () => {
    await expect(resolveEmbedder({ spec: "magic:model" })).rejects.toThrow(/unknown provider "magic"/);
    await expect(resolveEmbedder({ spec: "openai:" })).rejects.toThrow(InvalidInputError);
    await expect(resolveEmbedder({ spec: "hash:abc" })).rejects.toThrow(InvalidInputError);
  });
});

describe("resolveEmbedder: OpenAI wire format", () => {
  it("sends texts in batches and returns one vector per text, in order", async () => {
    const embedder = await openai({ batchSize: 10 });
    expect(embedder?.id).toBe("openai:text-embedding-3-small");
    expect(embedder?.dimensions()).toBeUndefined();
    const vectors = await embedder!.embed(texts(25));
    expect(server.requests.map((r) => r.body.input?.length)).toEqual([10, 10, 5]);
    expect(server.requests.every((r) => r.path === "/v1/embeddings")).toBe(true);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-test");
    expect(server.requests[0]?.body.model).toBe("text-embedding-3-small");
    expect(vectors).toHaveLength(25);
    expect(Array.from(vectors[24]!)).toEqual(Array.from(hashVector("text number 24", 16)));
    expect(embedder!.dimensions()).toBe(16);
  });

  it("batches 96 texts per request by default", async () => {
    const embedder = await openai();
    await embedder!.embed(texts(100));
    expect(server.requests.map((r) => r.body.input?.length)).toEqual([96, 4]);
  });

  it("waits as long as Retry-After says after a 429, then succeeds", async () => {
    server.failures.push({ status: 429, headers: { "retry-after": "2" } });
    const embedder = await openai();
    const vectors = await embedder!.embed(["hello"]);
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
    expect(vectors).toHaveLength(1);
  });

  it("backs off exponentially on 5xx, then succeeds", async () => {
    server.failures.push({ status: 500 }, { status: 503 });
    const embedder = await openai();
    await embedder!.embed(["hello"]);
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toEqual([100, 200]);
  });

  it("fails with an UpstreamError carrying the status when 5xx persists", async () => {
    server.alwaysFail = 500;
    const embedder = await openai({ maxRetries: 2 });
    const error = await embedder!.embed(["hello"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).status).toBe(500);
    expect((error as UpstreamError).message).toMatch(
      /openai:text-embedding-3-small failed after 3 attempts \(HTTP 500\)/,
    );
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry a client error", async () => {
    server.failures.push({ status: 400 });
    const embedder = await openai();
    const error = await embedder!.embed(["hello"]).catch((e: unknown) => e);
    expect((error as UpstreamError).status).toBe(400);
    expect(server.requests).toHaveLength(1);
  });

  it("stops when the signal aborts, without turning the abort into an UpstreamError", async () => {
    server.alwaysFail = 503;
    const controller = new AbortController();
    const embedder = await resolveEmbedder({
      spec: "openai:text-embedding-3-small",
      baseUrl: `${server.origin}/v1`,
      apiKey: "sk-test",
      env: {},
      retry: {
        sleep: async () => {
          controller.abort();
        },
      },
    });
    const error = await embedder!.embed(["hello"], { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(UpstreamError);
    expect(server.requests).toHaveLength(1);
  });

  it("reads the key and base URL from the env given at resolve time", async () => {
    const env = { FERRET_EMBED_API_KEY: "sk-env", FERRET_EMBED_BASE_URL: `${server.origin}/v1` };
    const embedder = await resolveEmbedder({ spec: "openai:text-embedding-3-small", env });
    env.FERRET_EMBED_API_KEY = "sk-changed-later";
    await embedder!.embed(["hello"]);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-env");
  });

  it("needs an API key for openai", async () => {
    await expect(resolveEmbedder({ spec: "openai:text-embedding-3-small", env: {} })).rejects.toThrow(/OPENAI_API_KEY/);
  });
});

describe("resolveEmbedder: other providers", () => {
  it("speaks to an openai-compatible server at the base URL, with no key needed", async () => {
    const embedder = await resolveEmbedder({
      spec: "openai-compatible:bge-small",
      baseUrl: `${server.origin}/v1`,
      env: {},
    });
    expect(embedder?.id).toBe("openai-compatible:bge-small");
    const [vector] = await embedder!.embed(["compatible"]);
    expect(Array.from(vector!)).toEqual(Array.from(hashVector("compatible", 16)));
    expect(server.requests[0]?.body.model).toBe("bge-small");
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("needs a base URL for openai-compatible", async () => {
    await expect(resolveEmbedder({ spec: "openai-compatible:bge-small", env: {} })).rejects.toThrow(
      /FERRET_EMBED_BASE_URL/,
    );
  });

  it("speaks Ollama's /api/embed", async () => {
    const embedder = await resolveEmbedder({
      spec: "ollama:nomic-embed-text",
      baseUrl: `${server.origin}/api`,
      env: {},
    });
    const vectors = await embedder!.embed(["one", "two"]);
    expect(server.requests.map((r) => r.path)).toEqual(["/api/embed"]);
    expect(vectors.map((v) => v.length)).toEqual([16, 16]);
    expect(embedder!.dimensions()).toBe(16);
  });
});
