import type { Answer } from "../../spec/answer.js";
import type { TraceEvent } from "../../spec/trace.js";
import { unitId } from "./ids.js";

export interface RankedUnit {
  /** Document id, or row id for table rows. */
  id: string;
  source: string;
  step: number;
  score: number;
}

interface Found {
  id: string;
  docId: string;
  source: string;
  score: number;
  step: number;
  order: number;
}

/**
 * Distinct documents (or rows) the run retrieved, ranked by the step that first found them, then by score
 * within a step, then by the order they arrived. Draws on the answer's evidence and the passages named by
 * `tool-call-end` events (not probes'), so a passage the answerer dropped still counts as retrieved.
 */
export function rankedEvidence(
  answer: Pick<Answer, "evidence"> | undefined,
  events: readonly TraceEvent[],
): RankedUnit[] {
  const found: Found[] = [];
  for (const event of events) {
    // A probe's passages helped the engine decide; they are not evidence it retrieved.
    if (event.type !== "tool-call-end" || event.purpose === "probe") continue;
    for (const p of event.passages) {
      found.push({ id: p.id, docId: p.docId, source: p.source, score: p.score, step: event.step, order: found.length });
    }
  }
  for (const e of answer?.evidence ?? []) {
    found.push({ id: e.id, docId: e.docId, source: e.source, score: e.score, step: e.step, order: found.length });
  }
  found.sort((a, b) => a.step - b.step || b.score - a.score || a.order - b.order);
  const seen = new Set<string>();
  const ranked: RankedUnit[] = [];
  for (const f of found) {
    const id = unitId(f);
    if (seen.has(id)) continue;
    seen.add(id);
    ranked.push({ id, source: f.source, step: f.step, score: f.score });
  }
  return ranked;
}
