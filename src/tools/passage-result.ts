import type { Passage } from "../spec/passage.js";
import type { ToolResult } from "../spec/tool-result.js";
import { DEFAULT_LOW_CONFIDENCE } from "./define-tool.js";

/** Turns found passages into a result: `no_results` with a hint, `low_confidence`, or `ok`. */
export function passageResult(options: {
  passages: Passage[];
  lowConfidence?: number;
  /** What to suggest when nothing (or nothing good) was found. */
  hint: string;
}): ToolResult {
  const { passages, hint } = options;
  if (passages.length === 0) return { status: "no_results", passages: [], hint };
  const best = bestScore(passages);
  if (best < (options.lowConfidence ?? DEFAULT_LOW_CONFIDENCE)) {
    return { status: "low_confidence", passages, hint: `best score ${best.toFixed(2)} is low; ${hint}` };
  }
  return { status: "ok", passages };
}

export function bestScore(passages: readonly Pick<Passage, "score">[]): number {
  let best = 0;
  for (const p of passages) if (p.score > best) best = p.score;
  return best;
}
