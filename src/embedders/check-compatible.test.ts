import { describe, expect, it } from "vitest";
import type { EmbedderV1 } from "../spec/embedder.js";
import { EmbedderMismatchError } from "../spec/errors.js";
import { createMemoryEmbeddingStore } from "./__fixtures__/memory-store.js";
import { checkEmbedderCompatible } from "./check-compatible.js";
import { createHashingEmbedder } from "./hashing.js";

/** An embedder whose dimensions are unknown until it has answered once, like an API embedder. */
function lazyEmbedder(id: string, dims: number): EmbedderV1 & { calls: number } {
  let known: number | undefined;
  const embedder = {
    specificationVersion: "v1" as const,
    id,
    calls: 0,
    dimensions: () => known,
    async embed(texts: string[]) {
      embedder.calls++;
      known = dims;
      return texts.map(() => new Float32Array(dims));
    },
  };
  return embedder;
}

describe("checkEmbedderCompatible", () => {
  it("records the embedder when the store has none", async () => {
    const store = createMemoryEmbeddingStore();
    const info = await checkEmbedderCompatible(store, "t1", createHashingEmbedder({ dimensions: 64 }));
    expect(info).toEqual({ id: "hash:64", dimensions: 64 });
    expect(await store.embedderInfo("t1")).toEqual({ id: "hash:64", dimensions: 64 });
    expect(await store.embedderInfo("t2")).toBeUndefined();
  });

  it("asks an embedder of unknown dimensions one text before recording it", async () => {
    const store = createMemoryEmbeddingStore();
    const embedder = lazyEmbedder("openai:text-embedding-3-small", 1536);
    await checkEmbedderCompatible(store, "t1", embedder);
    expect(embedder.calls).toBe(1);
    expect(await store.embedderInfo("t1")).toEqual({ id: "openai:text-embedding-3-small", dimensions: 1536 });
  });

  it("accepts the same embedder again without asking it anything", async () => {
    const store = createMemoryEmbeddingStore();
    await store.setEmbedderInfo("t1", { id: "openai:text-embedding-3-small", dimensions: 1536 });
    const embedder = lazyEmbedder("openai:text-embedding-3-small", 1536);
    expect(await checkEmbedderCompatible(store, "t1", embedder)).toEqual({
      id: "openai:text-embedding-3-small",
      dimensions: 1536,
    });
    expect(embedder.calls).toBe(0);
  });

  it("refuses another embedder with a message that says how to fix it", async () => {
    const store = createMemoryEmbeddingStore();
    await store.setEmbedderInfo("t1", { id: "local:Xenova/all-MiniLM-L6-v2", dimensions: 384 });
    const error = await checkEmbedderCompatible(store, "t1", createHashingEmbedder({ dimensions: 384 })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EmbedderMismatchError);
    expect((error as Error).message).toMatch(/made by local:Xenova\/all-MiniLM-L6-v2 \(384 dimensions\)/);
    expect((error as Error).message).toMatch(/Use the same embedder \(local:Xenova\/all-MiniLM-L6-v2\)/);
    expect((error as Error).message).toMatch(/new --db/);
  });

  it("refuses the same id with other dimensions", async () => {
    const store = createMemoryEmbeddingStore();
    await store.setEmbedderInfo("t1", { id: "hash:64", dimensions: 128 });
    await expect(checkEmbedderCompatible(store, "t1", createHashingEmbedder({ dimensions: 64 }))).rejects.toThrow(
      EmbedderMismatchError,
    );
  });
});
