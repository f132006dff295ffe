import type { Passage } from "../spec/passage.js";
import type { RerankerV1 } from "../spec/reranker.js";
import { fold } from "../text/overlap.js";
import { queryTerms, terms } from "../text/tokenize.js";

const K1 = 1.2;
const B = 0.75;

/** Folded terms of what a reader sees of a passage: title, section and text. */
function passageTerms(p: Passage): string[] {
  return terms(`${p.title ?? ""} ${p.section ?? ""} ${p.text}`).map(fold);
}

/**
 * Relevance of each passage to the query, in [0, 1]: 0.6 x the IDF-weighted share of query terms it covers
 * plus 0.4 x its BM25 relative to the best passage, with IDF and length taken over the passages themselves.
 */
export function lexicalScores(query: string, passages: readonly Passage[]): number[] {
  const wanted = [...new Set(queryTerms(query).map(fold))];
  if (wanted.length === 0 || passages.length === 0) return passages.map(() => 0);
  const docs = passages.map((p) => {
    const tf = new Map<string, number>();
    const list = passageTerms(p);
    for (const t of list) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { tf, length: list.length };
  });
  const n = docs.length;
  const avg = Math.max(1, docs.reduce((sum, d) => sum + d.length, 0) / n);
  const idf = new Map<string, number>();
  for (const t of wanted) {
    const df = docs.filter((d) => d.tf.has(t)).length;
    idf.set(t, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }
  const totalWeight = wanted.reduce((sum, t) => sum + (idf.get(t) ?? 0), 0);
  const raw = docs.map((d) => {
    let covered = 0;
    let bm25 = 0;
    for (const t of wanted) {
      const tf = d.tf.get(t) ?? 0;
      if (tf === 0) continue;
      const w = idf.get(t) ?? 0;
      covered += w;
      bm25 += (w * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.length) / avg));
    }
    return { coverage: totalWeight > 0 ? covered / totalWeight : 0, bm25 };
  });
  const best = Math.max(...raw.map((r) => r.bm25));
  return raw.map((r) => Math.round((0.6 * r.coverage + 0.4 * (best > 0 ? r.bm25 / best : 0)) * 1000) / 1000);
}

/** Sorts passages by the given scores (ties keep their order), with `score` replaced. */
export function orderByScores(passages: readonly Passage[], scores: readonly number[]): Passage[] {
  return passages
    .map((p, i) => ({ p, i, s: scores[i] ?? 0 }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map(({ p, s }) => ({ ...p, score: s }));
}

/** `lexical`: a deterministic, offline re-ranker (query-term coverage with BM25-like weighting). */
export function createLexicalReranker(): RerankerV1 {
  return {
    specificationVersion: "v1",
    id: "lexical",
    async rerank(query, passages) {
      return orderByScores(passages, lexicalScores(query, passages));
    },
  };
}
