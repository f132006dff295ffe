import type { RetrieveOptions, Retriever } from "../../retrieval/retriever.js";
import type { Passage } from "../../spec/passage.js";
import { queryTerms, terms } from "../../text/tokenize.js";

export interface FakeRetriever extends Retriever {
  /** Every search, in order. */
  readonly calls: { query: string; options: RetrieveOptions }[];
}

/**
 * An in-memory retriever for tests: scores a passage by the share of query terms it contains, restricted
 * to the requested sources and document. `search` replaces that behaviour (to hang, throw, ...).
 */
export function createFakeRetriever(options: {
  passages?: Passage[];
  search?: (query: string, options: RetrieveOptions) => Promise<Passage[]>;
}): FakeRetriever {
  const calls: FakeRetriever["calls"] = [];
  const passages = options.passages ?? [];
  return {
    calls,
    async search(query, opts) {
      calls.push({ query, options: opts });
      if (options.search) return options.search(query, opts);
      const wanted = queryTerms(query);
      const found: Passage[] = [];
      for (const p of passages) {
        if (opts.sources?.length && !opts.sources.includes(p.source)) continue;
        if (opts.docId !== undefined && p.docId !== opts.docId) continue;
        const have = new Set(terms(p.text));
        const hits = wanted.filter((t) => have.has(t)).length;
        if (hits === 0 || wanted.length === 0) continue;
        found.push({ ...p, score: hits / wanted.length });
      }
      return found.sort((a, b) => b.score - a.score).slice(0, opts.k ?? 5);
    },
  };
}
