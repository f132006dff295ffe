import type { Passage } from "./passage.js";

/**
 * Re-orders passages by their relevance to a query (a cross-encoder, an API re-ranker, or a lexical scorer).
 * Returns the same passages, best first, each with `score` set to the re-ranker's relevance in [0, 1].
 */
export interface RerankerV1 {
  readonly specificationVersion: "v1";
  /** `lexical`, `local:<model>`, `<provider>:<model>`. */
  readonly id: string;
  rerank(query: string, passages: readonly Passage[], options?: { signal?: AbortSignal }): Promise<Passage[]>;
}
