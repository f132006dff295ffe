import type { EmbedderV1 } from "../spec/embedder.js";
import type { Passage } from "../spec/passage.js";
import type { ScoredChunk, SearchFilter, StoreV1 } from "../spec/store.js";
import { queryTerms } from "../text/tokenize.js";
import { keywordConfidence } from "./calibrate.js";
import { dedupeOverlapping } from "./dedupe.js";
import type { RetrieveOptions, Retriever, SearchMode } from "./retriever.js";
import { reciprocalRankFusion } from "./rrf.js";

export interface CreateRetrieverOptions {
  store: StoreV1;
  /** Absent: keyword only. */
  embedder?: EmbedderV1;
  /** How many extra candidates to fetch per requested passage, to survive de-duplication. */
  overfetch?: number;
}

function toPassage(hit: ScoredChunk, score: number): Passage {
  const { raw: _raw, ...passage } = hit;
  return { ...passage, score };
}

/** Keyword, vector and hybrid retrieval over a store, with calibrated scores and de-duplication. */
export function createRetriever(options: CreateRetrieverOptions): Retriever {
  const { store, embedder } = options;
  const overfetch = options.overfetch ?? 3;

  async function keyword(query: string, filter: SearchFilter): Promise<Passage[]> {
    const wanted = queryTerms(query);
    if (wanted.length === 0) return [];
    const hits = await store.keywordSearch({ ...filter, terms: wanted });
    return hits.map((hit) =>
      toPassage(hit, keywordConfidence(wanted, `${hit.title ?? ""} ${hit.section ?? ""} ${hit.text}`, hit.raw)),
    );
  }

  async function vector(query: string, filter: SearchFilter, signal?: AbortSignal): Promise<Passage[]> {
    if (!embedder) return [];
    const [vec] = await embedder.embed([query], { signal });
    if (!vec) return [];
    const hits = await store.vectorSearch({ ...filter, vector: vec, strategy: "auto" });
    return hits.map((hit) => toPassage(hit, Math.max(0, Math.min(1, hit.raw))));
  }

  return {
    async search(query: string, opts: RetrieveOptions): Promise<Passage[]> {
      const k = Math.max(1, Math.min(100, opts.k ?? 5));
      const mode: SearchMode = opts.mode ?? (embedder ? "hybrid" : "keyword");
      const filter: SearchFilter = {
        principal: opts.principal,
        sources: opts.sources,
        docId: opts.docId,
        since: opts.since,
        k: k * overfetch,
      };
      let ranked: Passage[];
      if (mode === "keyword" || !embedder) ranked = await keyword(query, filter);
      else if (mode === "vector") ranked = await vector(query, filter, opts.signal);
      else {
        const [kw, vec] = await Promise.all([keyword(query, filter), vector(query, filter, opts.signal)]);
        ranked = reciprocalRankFusion([kw, vec]);
      }
      return dedupeOverlapping(ranked).slice(0, k);
    },
  };
}
