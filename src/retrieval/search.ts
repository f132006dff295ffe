import type { EmbedderV1 } from "../spec/embedder.js";
import { type Passage, passageKey } from "../spec/passage.js";
import type { ScoredChunk, SearchFilter, StoreV1 } from "../spec/store.js";
import { queryTerms } from "../text/tokenize.js";
import { keywordConfidence } from "./calibrate.js";
import { dedupeOverlapping } from "./dedupe.js";
import { identityFirst } from "./identity.js";
import type { RetrieveOptions, Retriever, SearchMode } from "./retriever.js";
import { reciprocalRankFusion } from "./rrf.js";
import { titledFirst } from "./titled.js";

export interface CreateRetrieverOptions {
  store: StoreV1;
  /** Absent: keyword only. */
  embedder?: EmbedderV1;
  /** How many extra candidates to fetch per requested passage, to survive de-duplication. */
  overfetch?: number;
  /**
   * A passage of a document whose title the query spells out as a name (titled.ts) comes first, with the best
   * score of the search, drawn from every candidate fetched. Default true.
   */
  titledFirst?: boolean;
}

function toPassage(hit: ScoredChunk, score: number): Passage {
  const { raw: _raw, ...passage } = hit;
  return { ...passage, score };
}

/** Keyword, vector and hybrid retrieval over a store, with calibrated scores and de-duplication. */
export function createRetriever(options: CreateRetrieverOptions): Retriever {
  const { store, embedder } = options;
  const overfetch = options.overfetch ?? 3;
  const titled = options.titledFirst ?? true;

  /** BM25 hits in rank order; `score` is filled in by `calibrate` for the passages finally kept. */
  async function keyword(wanted: string[], filter: SearchFilter): Promise<ScoredChunk[]> {
    if (wanted.length === 0) return [];
    return store.keywordSearch({ ...filter, terms: wanted });
  }

  /** Confidence for the kept keyword hits only: segmenting every candidate would cost more than the search. */
  function calibrate(passages: Passage[], wanted: string[], raws: Map<string, number>): Passage[] {
    return passages.map((p) => {
      const raw = raws.get(passageKey(p));
      if (raw === undefined) return p;
      const confidence = keywordConfidence(wanted, `${p.title ?? ""} ${p.section ?? ""} ${p.text}`, raw);
      return { ...p, score: Math.max(p.score === raw ? 0 : p.score, confidence) };
    });
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
      const wanted = queryTerms(query);
      const raws = new Map<string, number>();
      const keywordPassages = async () => {
        const hits = await keyword(wanted, filter);
        for (const hit of hits) raws.set(passageKey(hit), hit.raw);
        return hits.map((hit) => toPassage(hit, hit.raw));
      };
      let ranked: Passage[];
      if (mode === "keyword" || !embedder) ranked = await keywordPassages();
      else if (mode === "vector") ranked = await vector(query, filter, opts.signal);
      else {
        const [kw, vec] = await Promise.all([keywordPassages(), vector(query, filter, opts.signal)]);
        // Fuse on rank; a keyword-only hit's provisional score is its raw BM25, replaced below.
        ranked = reciprocalRankFusion([kw.map((p) => ({ ...p, score: 0 })), vec]);
      }
      // A document the query names by its own id (a record key, a file name) comes first: identity, not words.
      const kept = dedupeOverlapping(ranked);
      // Then a document the query names by its title: the page of the name, above pages that mention it.
      const named = titled ? titledFirst(kept, query, false) : kept;
      const ids = identityFirst(named, query, false);
      const calibrated = calibrate(ids.slice(0, k), wanted, raws);
      return identityFirst(titled ? titledFirst(calibrated, query) : calibrated, query);
    },
  };
}
