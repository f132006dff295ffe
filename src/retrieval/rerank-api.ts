import { type RerankingModel, rerank } from "ai";
import { UpstreamError } from "../spec/errors.js";
import type { RerankerV1 } from "../spec/reranker.js";

export interface ApiRerankerOptions {
  /** An AI SDK reranking model (e.g. `cohere.rerankingModel("rerank-v3.5")`). */
  model: Exclude<RerankingModel, string>;
  /** Retries per call. Default 2. */
  maxRetries?: number;
}

/** An API re-ranker through the AI SDK's `rerank`; a failed call throws `UpstreamError`. */
export function createApiReranker(options: ApiRerankerOptions): RerankerV1 {
  const { model } = options;
  return {
    specificationVersion: "v1",
    id: `${model.provider}:${model.modelId}`,
    async rerank(query, passages, rerankOptions) {
      if (passages.length === 0) return [];
      const documents = passages.map((p) => [p.title, p.section, p.text].filter(Boolean).join("\n"));
      let ranking: { originalIndex: number; score: number }[];
      try {
        ({ ranking } = await rerank({
          model,
          query,
          documents,
          maxRetries: options.maxRetries ?? 2,
          abortSignal: rerankOptions?.signal,
        }));
      } catch (cause) {
        throw new UpstreamError(`re-ranker ${model.provider}:${model.modelId} failed: ${(cause as Error).message}`, {
          cause,
        });
      }
      const score = new Map<number, number>();
      for (const r of ranking) score.set(r.originalIndex, Math.max(0, Math.min(1, r.score)));
      // Passages the API left out (a topN limit) go after every ranked one, in their old order, scored 0.
      return passages
        .map((p, i) => ({ p, i, s: score.get(i) }))
        .sort((a, b) => (b.s ?? -1) - (a.s ?? -1) || a.i - b.i)
        .map(({ p, s }) => ({ ...p, score: s ?? 0 }));
    },
  };
}
