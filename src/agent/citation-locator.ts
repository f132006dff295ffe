import type { Citation, EvidenceItem } from "../spec/answer.js";
import type { DocumentHeader } from "../spec/document.js";
import type { Principal } from "../spec/principal.js";
import type { DocumentStoreV1 } from "../spec/store.js";
import { isWebUrl } from "../text/text-fragment.js";

/**
 * The 1-based page holding `offset`, given `pageStarts[i]` = where page i + 1 begins (ascending): the last
 * page whose start is at or before the offset (binary search). Undefined without a usable page list.
 */
export function pageOf(pageStarts: unknown, offset: number): number | undefined {
  if (!Array.isArray(pageStarts) || pageStarts.length === 0 || !Number.isFinite(offset)) return undefined;
  let lo = 0;
  let hi = pageStarts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const start = pageStarts[mid];
    if (typeof start !== "number") return undefined;
    if (start <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found < 0 ? 1 : found + 1;
}

/**
 * Where a person would look in the document: the loader's own `metadata.locator` (sheet range, slide, line
 * range, message) when it set one, else `page N` for a document with page starts (PDF) at `offset`.
 */
export function locatorOf(metadata: Record<string, unknown>, offset: number | undefined): string | undefined {
  const own = metadata.locator;
  if (typeof own === "string" && own.trim() !== "") return own.slice(0, 200);
  if (offset === undefined) return undefined;
  const page = pageOf(metadata.pageStarts, offset);
  return page === undefined ? undefined : `page ${page}`;
}

/** The quote's offset in the document: the passage's start, plus where the quote sits in it when found as is. */
function quoteOffset(item: EvidenceItem, quote: string): number | undefined {
  if (item.start === undefined) return undefined;
  const at = item.text.indexOf(quote.trim());
  return item.start + Math.max(at, 0);
}

/**
 * Adds a `locator` to each citation from its document's metadata: one header read (no text) per distinct
 * cited document, in parallel. A web page already has its `url`; a document that cannot be read keeps its citation as it was.
 */
export async function addCitationLocators(options: {
  citations: readonly Citation[];
  evidence: readonly EvidenceItem[];
  store: Pick<DocumentStoreV1, "getDocumentHeader">;
  principal: Principal;
}): Promise<Citation[]> {
  const { citations, evidence, store, principal } = options;
  const key = (c: Citation) => `${c.source}\u0000${c.docId}`;
  const wanted = new Map<string, Citation>();
  for (const c of citations) if (!isWebUrl(c.docId) && !wanted.has(key(c))) wanted.set(key(c), c);
  const docs = new Map<string, DocumentHeader | undefined>();
  await Promise.all(
    [...wanted].map(async ([k, c]) => {
      try {
        docs.set(k, await store.getDocumentHeader(c.docId, principal, { source: c.source }));
      } catch {
        docs.set(k, undefined);
      }
    }),
  );
  return citations.map((c) => {
    const doc = docs.get(key(c));
    const item = evidence[c.n - 1];
    if (!doc || !item) return c;
    const locator = locatorOf(doc.metadata ?? {}, quoteOffset(item, c.quote));
    return locator === undefined ? c : { ...c, locator };
  });
}
