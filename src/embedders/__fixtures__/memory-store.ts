import type { StoreV1 } from "../../spec/store.js";

type EmbeddingStore = Pick<StoreV1, "cachedEmbeddings" | "cacheEmbeddings" | "embedderInfo" | "setEmbedderInfo">;

/** The embedding-cache and embedder-info part of a store, in memory, for tests. */
export function createMemoryEmbeddingStore(): EmbeddingStore & { cache: Map<string, Float32Array> } {
  const cache = new Map<string, Float32Array>();
  const infos = new Map<string, { id: string; dimensions: number }>();
  return {
    cache,
    async cachedEmbeddings(model, hashes) {
      const out = new Map<string, Float32Array>();
      for (const hash of hashes) {
        const vector = cache.get(`${model}\u0000${hash}`);
        if (vector) out.set(hash, vector);
      }
      return out;
    },
    async cacheEmbeddings(model, entries) {
      for (const [hash, vector] of entries) cache.set(`${model}\u0000${hash}`, vector);
    },
    async embedderInfo(tenant) {
      return infos.get(tenant);
    },
    async setEmbedderInfo(tenant, info) {
      infos.set(tenant, info);
    },
  };
}
