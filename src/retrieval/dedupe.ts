import type { Passage } from "../spec/passage.js";

/** Overlap of two spans relative to the shorter one, 0..1. */
function overlap(a: Passage, b: Passage): number {
  if (a.start === undefined || a.end === undefined || b.start === undefined || b.end === undefined) return 0;
  const shared = Math.min(a.end, b.end) - Math.max(a.start, b.start);
  if (shared <= 0) return 0;
  return shared / Math.max(1, Math.min(a.end - a.start, b.end - b.start));
}

/**
 * Drops passages that repeat an earlier (better-ranked) passage: the same id, or a chunk of the same
 * document whose span overlaps it by more than half (chunk overlap makes neighbours share sentences).
 */
export function dedupeOverlapping(passages: Passage[], maxOverlap = 0.5): Passage[] {
  const kept: Passage[] = [];
  const ids = new Set<string>();
  for (const p of passages) {
    if (ids.has(p.id)) continue;
    if (kept.some((k) => k.docId === p.docId && overlap(k, p) > maxOverlap)) continue;
    ids.add(p.id);
    kept.push(p);
  }
  return kept;
}
