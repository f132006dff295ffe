import { type Passage, passageKey } from "../spec/passage.js";
import type { ScoredDocument, StoreV1 } from "../spec/store.js";
import { queryTerms } from "../text/tokenize.js";
import { keywordConfidence } from "./calibrate.js";
import { dedupeOverlapping } from "./dedupe.js";
import type { RetrieveOptions, Retriever, SearchMode } from "./retriever.js";
import { titledFirst } from "./titled.js";

/** Above this many chunks a knowledge base is searched hierarchically by default. */
export const HIERARCHICAL_THRESHOLD = 50_000;

export type RetrievalShape = "flat" | "hierarchical";

/** Flat search for small corpora; document pass first when the corpus has `threshold` chunks or more. */
export function chooseRetrieval(options: { chunks: number; threshold?: number }): RetrievalShape {
  return options.chunks >= (options.threshold ?? HIERARCHICAL_THRESHOLD) ? "hierarchical" : "flat";
}

export interface CreateHierarchicalRetrieverOptions {
  store: StoreV1;
  /** Flat retrieval: used for vector and hybrid search, one-document search, and whenever the document pass finds nothing. */
  base: Retriever;
  /** Documents kept by the document pass. Default 8. */
  docs?: number;
  /** Chunk candidates fetched per requested passage, to survive de-duplication. Default 3. */
  overfetch?: number;
  /** The mode of a search that names none: `keyword` (default), or `hybrid` when the base retriever has an embedder. */
  defaultMode?: SearchMode;
  /** Told which documents the first pass chose (for traces and measurements). */
  onDocuments?: (docs: ScoredDocument[]) => void;
  /** A page whose title the query spells out as a name comes first, as in the flat retriever. Default true. */
  titledFirst?: boolean;
}

/**
 * Two-pass keyword retrieval: BM25 over documents' titles, headings and opening paragraphs picks the best
 * `docs` documents, then BM25 over chunks searches inside those documents only. When the document pass finds
 * nothing, or the store has no document index, the search is the base retriever's flat search; when the
 * chosen documents yield fewer than `k` passages, flat results fill the rest. Every read carries the
 * principal, so both passes are ACL-filtered in the store.
 */
export function createHierarchicalRetriever(options: CreateHierarchicalRetrieverOptions): Retriever {
  const { store, base } = options;
  const docCount = Math.max(1, options.docs ?? 8);
  const overfetch = options.overfetch ?? 3;
  const titled = options.titledFirst ?? true;

  return {
    async search(query: string, opts: RetrieveOptions): Promise<Passage[]> {
      const documentSearch = store.documentSearch?.bind(store);
      const keywordOnly = (opts.mode ?? options.defaultMode ?? "keyword") === "keyword";
      const wanted = queryTerms(query);
      if (documentSearch === undefined || !keywordOnly || opts.docId !== undefined || wanted.length === 0) {
        return base.search(query, opts);
      }
      const k = Math.max(1, Math.min(100, opts.k ?? 5));
      const filter = { principal: opts.principal, sources: opts.sources, since: opts.since };
      const docs = await documentSearch({ ...filter, terms: wanted, k: docCount });
      options.onDocuments?.(docs);
      if (docs.length === 0) return base.search(query, opts);
      opts.signal?.throwIfAborted();
      const hits = await store.keywordSearch({
        ...filter,
        docIds: docs.map((d) => d.docId),
        terms: wanted,
        k: k * overfetch,
      });
      const raws = new Map(hits.map((hit) => [passageKey(hit), hit.raw]));
      const unique = dedupeOverlapping(hits.map(({ raw: _raw, ...passage }) => passage));
      const kept = (titled ? titledFirst(unique, query, false) : unique).slice(0, k);
      // Confidence for the kept hits only, as the flat retriever does.
      const inDocs = kept.map((p) => ({
        ...p,
        score: keywordConfidence(wanted, `${p.title ?? ""} ${p.section ?? ""} ${p.text}`, raws.get(passageKey(p)) ?? 0),
      }));
      if (inDocs.length >= k) return titled ? titledFirst(inDocs, query) : inDocs;
      const flat = await base.search(query, { ...opts, mode: "keyword" });
      // Fill by confidence (both lists are calibrated the same way), so a better flat hit is not pushed down.
      const merged = [...inDocs, ...flat].sort((a, b) => b.score - a.score);
      const filled = dedupeOverlapping(merged);
      return (titled ? titledFirst(filled, query) : filled).slice(0, k);
    },
  };
}
