import type { Passage } from "../spec/passage.js";
import type { Principal } from "../spec/principal.js";

export type SearchMode = "keyword" | "vector" | "hybrid";

export interface RetrieveOptions {
  principal: Principal;
  /** Source names to search; absent or empty means every source the principal may read. */
  sources?: string[];
  docId?: string;
  since?: string;
  /** How many passages, 1..100; default 5. */
  k?: number;
  /** Default: hybrid when the store has vectors and an embedder is configured, else keyword. */
  mode?: SearchMode;
  signal?: AbortSignal;
}

/** Finds passages: keyword (BM25), vector, or both fused with reciprocal-rank fusion, de-duplicated. */
export interface Retriever {
  search(query: string, options: RetrieveOptions): Promise<Passage[]>;
}
