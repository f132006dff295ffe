import { normaliseId } from "./ids.js";
import type { RankedUnit } from "./ranked-evidence.js";

function hit(ranked: readonly RankedUnit[], gold: string): boolean {
  const g = normaliseId(gold);
  return ranked.some((unit) => unit.id === g);
}

/** Share of `gold_sources` retrieved at any step; `null` where the question has no gold sources. */
export function evidenceRecall(ranked: readonly RankedUnit[], gold: readonly string[]): number | null {
  if (gold.length === 0) return null;
  return gold.filter((g) => hit(ranked, g)).length / gold.length;
}

/** Share of gold among the top `k` distinct retrieved units (the HippoRAG definition); `null` without gold. */
export function recallAtK(ranked: readonly RankedUnit[], gold: readonly string[], k: number): number | null {
  return evidenceRecall(ranked.slice(0, k), gold);
}

/** 1 when every gold unit is in the top `k`, else 0; `null` without gold. */
export function allGoldAtK(ranked: readonly RankedUnit[], gold: readonly string[], k: number): number | null {
  const recall = recallAtK(ranked, gold, k);
  return recall === null ? null : recall === 1 ? 1 : 0;
}
