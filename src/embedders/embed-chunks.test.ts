import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChunkRecord } from "../spec/document.js";
import type { EmbedderV1 } from "../spec/embedder.js";
import { type EmbeddingsServer, startEmbeddingsServer } from "./__fixtures__/embeddings-server.js";
import { createMemoryEmbeddingStore } from "./__fixtures__/memory-store.js";
import { embedChunks, sha256Hex } from "./embed-chunks.js";
import { hashVector } from "./hashing.js";
import { resolveEmbedder } from "./resolve.js";

function chunk(docId: string, ordinal: number, text: string): ChunkRecord {
  return {
    id: `${docId}::${ordinal}`,
    docId,
    ordinal,
    text,
    section: [],
    start: 0,
    end: text.length,
    tokens: 1,
    searchText: text,
  };
}

let server: EmbeddingsServer;
let embedder: EmbedderV1;

beforeEach(async () => {
  server = await startEmbeddingsServer({ dimensions: 8 });
  embedder = (await resolveEmbedder({
    spec: "openai-compatible:mini",
    baseUrl: `${server.origin}/v1`,
    env: {},
  })) as EmbedderV1;
});
afterEach(async () => {
  await server.close();
});

describe("embedChunks", () => {
  it("fills every chunk's embedding and caches it by embedder id and text hash", async () => {
    const store = createMemoryEmbeddingStore();
    const chunks = [chunk("a.md", 0, "alpha beta"), chunk("a.md", 1, "gamma delta")];
    const result = await embedChunks({ embedder, store, chunks });
    expect(result).toEqual({ embedded: 2, cached: 0 });
    expect(Array.from(chunks[1]!.embedding!)).toEqual(Array.from(hashVector("gamma delta", 8)));
    expect([...store.cache.keys()]).toContain(`openai-compatible:mini\u0000${sha256Hex("alpha beta")}`);
  });

  it("sends nothing to the model the second time the same texts are embedded", async () => {
    const store = createMemoryEmbeddingStore();
    await embedChunks({ embedder, store, chunks: [chunk("a.md", 0, "alpha beta"), chunk("a.md", 1, "gamma")] });
    const requestsBefore = server.requests.length;
    const again = [chunk("b.md", 0, "gamma"), chunk("b.md", 1, "alpha beta")];
    const result = await embedChunks({ embedder, store, chunks: again });
    expect(server.requests.length).toBe(requestsBefore);
    expect(result).toEqual({ embedded: 0, cached: 2 });
    expect(Array.from(again[0]!.embedding!)).toEqual(Array.from(hashVector("gamma", 8)));
  });

  it("sends only uncached texts, and a repeated text once", async () => {
    const store = createMemoryEmbeddingStore();
    await embedChunks({ embedder, store, chunks: [chunk("a.md", 0, "known text")] });
    server.requests.length = 0;
    const chunks = [chunk("b.md", 0, "known text"), chunk("b.md", 1, "new text"), chunk("b.md", 2, "new text")];
    const result = await embedChunks({ embedder, store, chunks });
    expect(server.requests.map((r) => r.body.input)).toEqual([["new text"]]);
    expect(result).toEqual({ embedded: 2, cached: 1 });
    expect(chunks.every((c) => c.embedding?.length === 8)).toBe(true);
  });

  it("keys the cache by embedder, so another embedder does not reuse the vectors", async () => {
    const store = createMemoryEmbeddingStore();
    await embedChunks({ embedder, store, chunks: [chunk("a.md", 0, "shared")] });
    const other = (await resolveEmbedder({ spec: "hash:8" }))!;
    const result = await embedChunks({ embedder: other, store, chunks: [chunk("a.md", 0, "shared")] });
    expect(result).toEqual({ embedded: 1, cached: 0 });
  });

  it("works through the chunks in groups and reports progress", async () => {
    const store = createMemoryEmbeddingStore();
    const chunks = Array.from({ length: 5 }, (_, i) => chunk("c.md", i, `text ${i}`));
    const progress: number[] = [];
    await embedChunks({ embedder, store, chunks, groupSize: 2, onProgress: (p) => progress.push(p.done) });
    expect(progress).toEqual([2, 4, 5]);
    expect(server.requests.map((r) => r.body.input?.length)).toEqual([2, 2, 1]);
  });

  it("keeps the vectors of finished groups when a later group fails", async () => {
    const store = createMemoryEmbeddingStore();
    const chunks = [chunk("d.md", 0, "first"), chunk("d.md", 1, "second")];
    const base = (await resolveEmbedder({
      spec: "openai-compatible:mini",
      baseUrl: `${server.origin}/v1`,
      env: {},
      retry: { maxRetries: 0 },
    }))!;
    let calls = 0;
    const failing: EmbedderV1 = {
      ...base,
      embed: async (texts, options) => {
        if (++calls === 2) server.alwaysFail = 400;
        return base.embed(texts, options);
      },
    };
    await expect(embedChunks({ embedder: failing, store, chunks, groupSize: 1 })).rejects.toThrow(/HTTP 400/);
    expect(store.cache.size).toBe(1);
  });
});
