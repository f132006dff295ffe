import { type Passage, passageKey } from "../spec/passage.js";

/** Overlap of two spans relative to the shorter one, 0..1. */
function overlap(a: Passage, b: Passage): number {
  if (a.start === undefined || a.end === undefined || b.start === undefined || b.end === undefined) return 0;
  const shared = Math.min(a.end, b.end) - Math.max(a.start, b.start);
  if (shared <= 0) return 0;
  return shared / Math.max(1, Math.min(a.end - a.start, b.end - b.start));
}

/**
 * Drops passages that repeat an earlier (better-ranked) passage: the same source and id, or a chunk of the
 * same document (source and id) whose span overlaps it by more than half (chunk overlap makes neighbours
 * share sentences). Two sources holding the same document id are two documents.
 */
export function dedupeOverlapping(passages: Passage[], maxOverlap = 0.5): Passage[] {
  const kept: Passage[] = [];
  const ids = new Set<string>();
  for (const p of passages) {
    const key = passageKey(p);
    if (ids.has(key)) continue;
    if (kept.some((k) => k.docId === p.docId && k.source === p.source && overlap(k, p) > maxOverlap)) continue;
    ids.add(key);
    kept.push(p);
  }
  return kept;
}
