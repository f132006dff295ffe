import type { Answer } from "../../spec/answer.js";
import type { EvalQuestion } from "../schema.js";
import { matchesGold } from "./ids.js";
import { normaliseText } from "./text.js";

/**
 * Share of citations whose cited document (or row) is in `gold_sources`. A citation outside the gold list
 * counts as unsupported, even when it is in the evidence; where `gold_sources` is empty every citation is
 * unsupported. `null` when the answer cites nothing (nothing to be precise about).
 */
export function citationPrecision(
  answer: Pick<Answer, "citations">,
  q: Pick<EvalQuestion, "gold_sources">,
): number | null {
  if (answer.citations.length === 0) return null;
  const supported = answer.citations.filter((c) =>
    q.gold_sources.some((gold) => matchesGold({ id: c.passageId, docId: c.docId }, gold)),
  );
  return supported.length / answer.citations.length;
}

/**
 * The other half of FORMAT.md's citation rule, without a judge: share of citations whose passage is in the
 * run's evidence and whose quote occurs in that passage's text (whitespace- and case-normalised).
 * `null` when the answer cites nothing.
 */
export function citationGrounding(answer: Pick<Answer, "citations" | "evidence">): number | null {
  if (answer.citations.length === 0) return null;
  const grounded = answer.citations.filter((c) => {
    const passage = answer.evidence.find((e) => e.id === c.passageId && e.source === c.source);
    return passage !== undefined && normaliseText(passage.text).includes(normaliseText(c.quote));
  });
  return grounded.length / answer.citations.length;
}
