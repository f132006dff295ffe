/** Answer units for the offline engine's unit tests: one quote of one document, as candidates.ts gives them. */
import type { Candidate } from "../candidates.js";

export interface UnitDoc {
  title: string;
  docId: string;
  updatedAt?: string;
}

/** Candidate `n` quoting `quote` from `doc` (its first chunk, found at step 1), with `score`. */
export function unitOf(n: number, quote: string, doc: UnitDoc, score = 1): Candidate {
  return {
    n,
    step: 1,
    quote,
    title: doc.title,
    score,
    context: `${doc.title} ${quote}`,
    passageText: `${doc.title}\n${quote}`,
    start: 0,
    asked: 1,
    item: {
      id: `${doc.docId}::0`,
      docId: doc.docId,
      source: "docs",
      title: doc.title,
      text: quote,
      score: 1,
      step: 1,
      callId: "c",
      updatedAt: doc.updatedAt,
    },
  };
}
