import { type Answer, passageKey, quoteSpan } from "../../index.js";

/** A verified citation with where its quote sits: in the passage text and in the whole document. */
export interface CitationSpan {
  n: number;
  passageId: string;
  docId: string;
  source: string;
  title?: string;
  quote: string;
  /** Where to look in the document (`page 3`, `Sheet1!A3:D3`, `slide 2`, `lines 6-9`, `message 2`). */
  locator?: string;
  /** A web page's address with a text fragment of the quote. */
  url?: string;
  /** The cited passage's text, so a client can show the quote in place. */
  passageText: string;
  /** `passageText.slice(start, end)` is the quoted span; null when it cannot be placed. */
  passage: { start: number; end: number } | null;
  /** The same span in the document's text (the passage's own offset added), when the passage has one. */
  document: { start: number; end: number } | null;
}

/** The citations of an answer with the offsets of their quotes. */
export function citationSpans(answer: Pick<Answer, "citations" | "evidence">): CitationSpan[] {
  const byKey = new Map(answer.evidence.map((e) => [passageKey(e), e]));
  return answer.citations.map((c) => {
    const numbered = answer.evidence[c.n - 1];
    const item =
      numbered && numbered.id === c.passageId && numbered.source === c.source
        ? numbered
        : byKey.get(passageKey({ source: c.source, id: c.passageId }));
    const span = item ? quoteSpan(item.text, c.quote) : undefined;
    const base = item?.start;
    return {
      n: c.n,
      passageId: c.passageId,
      docId: c.docId,
      source: c.source,
      ...(item?.title ? { title: item.title } : {}),
      quote: c.quote,
      ...(c.locator ? { locator: c.locator } : {}),
      ...(c.url ? { url: c.url } : {}),
      passageText: item?.text ?? "",
      passage: span ?? null,
      document: span && base !== undefined ? { start: base + span.start, end: base + span.end } : null,
    };
  });
}
