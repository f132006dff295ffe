import { createHash } from "node:crypto";
import type { ChunkRecord } from "../spec/document.js";
import type { EmbedderV1 } from "../spec/embedder.js";
import { UpstreamError } from "../spec/errors.js";
import type { StoreV1 } from "../spec/store.js";

export { checkEmbedderCompatible } from "./check-compatible.js";

export interface EmbedChunksOptions {
  embedder: EmbedderV1;
  /** Only the embedding cache is used: `cachedEmbeddings` / `cacheEmbeddings`, keyed by embedder id. */
  store: Pick<StoreV1, "cachedEmbeddings" | "cacheEmbeddings">;
  chunks: ChunkRecord[];
  /** Cache key of a text. Default: sha256 hex of the text. */
  hashOf?: (text: string) => string;
  signal?: AbortSignal;
  /** Chunks looked up, embedded and cached together, so an interrupted run keeps what it paid for. Default 256. */
  groupSize?: number;
  onProgress?: (progress: { done: number; total: number }) => void;
}

export interface EmbedChunksResult {
  /** Chunks whose vector the model computed in this call. */
  embedded: number;
  /** Chunks whose vector came from the cache. `embedded + cached === chunks.length`. */
  cached: number;
}

/**
 * Fills `chunk.embedding` for every chunk. Vectors are cached by (embedder id, sha256 of the chunk text): only
 * texts the cache lacks go to the model, and a text repeated across chunks is sent once.
 */
export async function embedChunks(options: EmbedChunksOptions): Promise<EmbedChunksResult> {
  const { embedder, store, chunks, signal } = options;
  const hashOf = options.hashOf ?? sha256Hex;
  const groupSize = options.groupSize ?? 256;
  let embedded = 0;
  let cached = 0;
  for (let start = 0; start < chunks.length; start += groupSize) {
    signal?.throwIfAborted();
    const group = chunks.slice(start, start + groupSize);
    const hashes = group.map((chunk) => hashOf(chunk.text));
    const vectors = await store.cachedEmbeddings(embedder.id, [...new Set(hashes)]);
    const expected = embedder.dimensions();
    if (expected !== undefined) {
      for (const [hash, vector] of vectors) if (vector.length !== expected) vectors.delete(hash);
    }
    const hits = new Set(vectors.keys());

    const missing = new Map<string, string>();
    group.forEach((chunk, i) => {
      const hash = hashes[i]!;
      if (!vectors.has(hash)) missing.set(hash, chunk.text);
    });
    if (missing.size > 0) {
      const fresh = await embedder.embed([...missing.values()], { signal });
      if (fresh.length !== missing.size) {
        throw new UpstreamError(`embedder ${embedder.id} returned ${fresh.length} vectors for ${missing.size} texts`, {
          context: { embedder: embedder.id },
        });
      }
      const entries = new Map<string, Float32Array>();
      let i = 0;
      for (const hash of missing.keys()) entries.set(hash, fresh[i++]!);
      await store.cacheEmbeddings(embedder.id, entries);
      for (const [hash, vector] of entries) vectors.set(hash, vector);
    }

    group.forEach((chunk, i) => {
      const hash = hashes[i]!;
      chunk.embedding = vectors.get(hash);
      if (hits.has(hash)) cached++;
      else embedded++;
    });
    options.onProgress?.({ done: start + group.length, total: chunks.length });
  }
  return { embedded, cached };
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
