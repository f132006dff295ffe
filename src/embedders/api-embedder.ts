import { type EmbeddingModel, embedMany } from "ai";
import type { EmbedderV1 } from "../spec/embedder.js";
import { UpstreamError } from "../spec/errors.js";
import { type RetryPolicy, withRetry } from "./retry.js";

export interface ApiEmbedderOptions extends RetryPolicy {
  /** `openai:text-embedding-3-small`, recorded in the store. */
  id: string;
  model: Exclude<EmbeddingModel, string>;
  /** Texts per request. Default 96. */
  batchSize?: number;
  /** Known up front; otherwise learned from the first response. */
  dimensions?: number;
}

/**
 * An embedder over an AI SDK embedding model (OpenAI, Ollama, any OpenAI-compatible server): texts go out in
 * batches of `batchSize`, one request at a time, each retried with back-off (see `withRetry`).
 */
export function createApiEmbedder(options: ApiEmbedderOptions): EmbedderV1 {
  const batchSize = options.batchSize ?? 96;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be >= 1, got ${batchSize}`);
  let dimensions = options.dimensions;

  async function embedBatch(values: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    const result = await withRetry(
      () => embedMany({ model: options.model, values, maxRetries: 0, abortSignal: signal }),
      { ...options, label: options.id, signal },
    );
    if (result.embeddings.length !== values.length) {
      throw new UpstreamError(
        `embedder ${options.id} returned ${result.embeddings.length} vectors for ${values.length} texts`,
        { context: { embedder: options.id } },
      );
    }
    return result.embeddings.map((embedding) => {
      dimensions ??= embedding.length;
      if (embedding.length !== dimensions) {
        throw new UpstreamError(
          `embedder ${options.id} returned a ${embedding.length}-dimensional vector, expected ${dimensions}`,
          { context: { embedder: options.id } },
        );
      }
      return Float32Array.from(embedding);
    });
  }

  return {
    specificationVersion: "v1",
    id: options.id,
    dimensions: () => dimensions,
    async embed(texts, embedOptions) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        out.push(...(await embedBatch(texts.slice(i, i + batchSize), embedOptions?.signal)));
      }
      return out;
    },
  };
}

/** True for an AI SDK embedding model object (specification v2 or v3). */
export function isEmbeddingModelObject(value: unknown): value is Exclude<EmbeddingModel, string> {
  if (typeof value !== "object" || value === null) return false;
  const v = (value as { specificationVersion?: unknown }).specificationVersion;
  return (v === "v2" || v === "v3") && typeof (value as { doEmbed?: unknown }).doEmbed === "function";
}

/** An embedder over an embedding model object the caller built; recorded in the store as `provider:modelId`. */
export function embedderFromModel(model: Exclude<EmbeddingModel, string>, policy: RetryPolicy = {}): EmbedderV1 {
  const prefix = model.provider.split(".")[0] ?? model.provider;
  return createApiEmbedder({ id: `${prefix}:${model.modelId}`, model, ...policy });
}
