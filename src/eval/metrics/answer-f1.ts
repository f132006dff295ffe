import { terms } from "../../text/tokenize.js";
import { stripCitationMarkers } from "./text.js";

const ARTICLES = new Set(["a", "an", "the"]);

/** SQuAD-style normalised tokens: the shared word segmentation, lower-cased, articles dropped. */
function answerTokens(text: string): string[] {
  return terms(stripCitationMarkers(text)).filter((t) => !ARTICLES.has(t));
}

/** 1 when the normalised answer equals the normalised gold answer. */
export function exactMatch(prediction: string, gold: string): number {
  const a = answerTokens(prediction);
  const b = answerTokens(gold);
  return a.length === b.length && a.every((t, i) => t === b[i]) ? 1 : 0;
}

/** Token-overlap F1 between an answer and the gold answer (SQuAD definition). */
export function tokenF1(prediction: string, gold: string): number {
  const p = answerTokens(prediction);
  const g = answerTokens(gold);
  if (p.length === 0 || g.length === 0) return p.length === g.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const t of g) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of p) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      common++;
      counts.set(t, left - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / p.length;
  const recall = common / g.length;
  return (2 * precision * recall) / (precision + recall);
}
