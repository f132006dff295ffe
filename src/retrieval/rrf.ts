import { type Passage, passageKey } from "../spec/passage.js";

/**
 * Reciprocal-rank fusion: each list contributes 1 / (k + rank) per passage. Returns passages in fused
 * order; each keeps the highest confidence score any list gave it. Passages are one when source and id are.
 */
export function reciprocalRankFusion(lists: Passage[][], k = 60): Passage[] {
  const fused = new Map<string, { passage: Passage; rrf: number }>();
  for (const list of lists) {
    list.forEach((passage, rank) => {
      const key = passageKey(passage);
      const entry = fused.get(key);
      if (entry) {
        entry.rrf += 1 / (k + rank + 1);
        if (passage.score > entry.passage.score) entry.passage = { ...entry.passage, score: passage.score };
      } else {
        fused.set(key, { passage, rrf: 1 / (k + rank + 1) });
      }
    });
  }
  return [...fused.values()].sort((a, b) => b.rrf - a.rrf).map((e) => e.passage);
}
