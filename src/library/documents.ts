import type { ChunkRecord, DocumentRecord } from "../spec/document.js";
import type { Principal } from "../spec/principal.js";
import type { StoreV1 } from "../spec/store.js";

/** A document as listed: no text. */
export interface DocumentEntry {
  id: string;
  source: string;
  title: string;
  updatedAt?: string;
}

/** A chunk as a reader sees it: its text and where it sits in the document. */
export type DocumentChunk = Pick<ChunkRecord, "id" | "ordinal" | "text" | "section" | "start" | "end">;

const CHUNK_BATCH = 64;
const MAX_CHUNKS = 20_000;
const MAX_PAGE = 200;

/** A readable document of a source with its chunks (ids `<docId>::<ordinal>`, in order), or undefined. */
export async function readDocument(options: {
  store: StoreV1;
  docId: string;
  source: string;
  principal: Principal;
}): Promise<{ document: DocumentRecord; chunks: DocumentChunk[] } | undefined> {
  const { store, docId, source, principal } = options;
  const document = await store.getDocument(docId, principal, { source });
  if (!document) return undefined;
  const chunks: DocumentChunk[] = [];
  // Ordinals run 0, 1, 2, ...: read them in batches until a batch comes back short.
  for (let from = 0; from < MAX_CHUNKS; from += CHUNK_BATCH) {
    const ids = Array.from({ length: CHUNK_BATCH }, (_, i) => `${docId}::${from + i}`);
    const batch = await store.getChunks(ids, principal, { source });
    for (const c of batch)
      chunks.push({ id: c.id, ordinal: c.ordinal, text: c.text, section: c.section, start: c.start, end: c.end });
    if (batch.length < CHUNK_BATCH) break;
  }
  return { document, chunks };
}

/**
 * The documents of a source the principal may read, by id, `limit` at most (default 50, at most 200), after
 * the id `after`. `next` is the cursor for the following page, absent on the last. Undefined when the source
 * is not readable (or does not exist): the two look the same.
 */
export async function listDocuments(options: {
  store: StoreV1;
  source: string;
  principal: Principal;
  limit?: number;
  after?: string;
}): Promise<{ documents: DocumentEntry[]; next?: string } | undefined> {
  const { store, source, principal } = options;
  const readable = (await store.listSources(principal)).some((s) => s.name === source);
  if (!readable) return undefined;
  const limit = Math.min(MAX_PAGE, Math.max(1, Math.floor(options.limit ?? 50)));
  const ids = [...(await store.documentHashes(principal.tenant, source)).keys()]
    .filter((id) => options.after === undefined || id > options.after)
    .sort();
  const documents: DocumentEntry[] = [];
  let i = 0;
  for (; i < ids.length && documents.length < limit; i++) {
    // Each document is read through the principal's rights (documents may carry their own ACL).
    const doc = await store.getDocument(ids[i] as string, principal, { source });
    if (!doc) continue;
    documents.push({
      id: doc.id,
      source: doc.source,
      title: doc.title,
      ...(doc.updatedAt ? { updatedAt: doc.updatedAt } : {}),
    });
  }
  return i < ids.length ? { documents, next: ids[i - 1] } : { documents };
}

/** Removes a document the principal may read; false when there is none to remove (or it is not readable). */
export async function removeDocument(options: {
  store: StoreV1;
  docId: string;
  source: string;
  principal: Principal;
}): Promise<boolean> {
  const { store, docId, source, principal } = options;
  const readable = (await store.listSources(principal)).some((s) => s.name === source);
  if (!readable) return false;
  const doc = await store.getDocument(docId, principal, { source });
  if (!doc) return false;
  await store.removeDocuments(principal.tenant, [docId], { source });
  return true;
}
