import type { DocumentWrite } from "../../spec/document.js";
import { searchText } from "../../text/tokenize.js";
import { checkBatchDimensions } from "../embedder-dims.js";
import type { StoreContext } from "./context.js";
import { bumpDataVersion } from "./data-version.js";
import { indexDocument } from "./doc-index.js";
import {
  deleteVector,
  ensureVectorTable,
  expectedDims,
  insertVector,
  VectorChanges,
  vectorVersionKey,
} from "./vectors.js";

/** Which document: ids are unique per source. */
export interface DocKey {
  tenant: string;
  source: string;
  docId: string;
}

/** Deletes a document's chunks with their keyword rows and vectors (not the document row). */
export function deleteChunksOf(ctx: StoreContext, { tenant, source, docId }: DocKey, changes: VectorChanges): void {
  const old = ctx
    .stmt("SELECT rowid, dims FROM chunks WHERE tenant = ? AND doc_id = ? AND source = ?")
    .all(tenant, docId, source) as {
    rowid: number;
    dims: number | null;
  }[];
  if (old.length === 0) return;
  const deleteFts = ctx.stmt("DELETE FROM chunks_fts WHERE rowid = ?");
  for (const { rowid, dims } of old) {
    deleteFts.run(rowid);
    if (dims !== null) {
      deleteVector(ctx, dims, rowid);
      changes.removed(dims, rowid);
    }
  }
  ctx.stmt("DELETE FROM chunks WHERE tenant = ? AND doc_id = ? AND source = ?").run(tenant, docId, source);
}

/** Counts a write's vector changes in meta, so HNSW side indexes know they are stale. */
export function bumpVectorVersions(ctx: StoreContext, changes: VectorChanges): Map<number, number> {
  const versions = new Map<number, number>();
  for (const dims of changes.byDims.keys()) versions.set(dims, ctx.bump(vectorVersionKey(dims)));
  return versions;
}

const UPSERT_DOCUMENT = `INSERT INTO documents (tenant, id, source, title, updated_at, acl, content_hash, text, metadata)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (tenant, id, source) DO UPDATE SET title = excluded.title,
    updated_at = excluded.updated_at, acl = excluded.acl, content_hash = excluded.content_hash,
    text = excluded.text, metadata = excluded.metadata`;

const INSERT_CHUNK = `INSERT INTO chunks
  (tenant, id, doc_id, source, ordinal, text, section, start, "end", tokens, updated_at, acl, dims)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/**
 * Writes a batch in one transaction: each document replaces its previous version (chunks, keyword rows, vectors).
 * Returns the vector changes and the new vector versions, for the HNSW side index.
 */
export function writeDocuments(
  ctx: StoreContext,
  batch: DocumentWrite[],
): { changes: VectorChanges; versions: Map<number, number> } {
  ctx.assertWritable("write documents");
  checkBatchDimensions(batch, (tenant) => expectedDims(ctx, tenant));
  const changes = new VectorChanges();
  const upsertDocument = ctx.stmt(UPSERT_DOCUMENT);
  const insertChunk = ctx.stmt(INSERT_CHUNK);
  const insertFts = ctx.stmt("INSERT INTO chunks_fts (rowid, title, section, body) VALUES (?, ?, ?, ?)");
  const ensured = new Set<number>();
  const run = ctx.db.transaction(() => {
    for (const { doc, chunks } of batch) {
      deleteChunksOf(ctx, { tenant: doc.tenant, source: doc.source, docId: doc.id }, changes);
      const acl = JSON.stringify(doc.acl);
      const updatedAt = doc.updatedAt ?? null;
      upsertDocument.run(
        doc.tenant,
        doc.id,
        doc.source,
        doc.title,
        updatedAt,
        acl,
        doc.contentHash,
        doc.text,
        JSON.stringify(doc.metadata),
      );
      const titleText = searchText(doc.title);
      const sectionText = new Map<string, string>();
      for (const chunk of chunks) {
        const section = JSON.stringify(chunk.section);
        let sectionWords = sectionText.get(section);
        if (sectionWords === undefined) {
          sectionWords = searchText(chunk.section.join(" "));
          sectionText.set(section, sectionWords);
        }
        const dims = chunk.embedding ? chunk.embedding.length : null;
        const { lastInsertRowid } = insertChunk.run(
          doc.tenant,
          chunk.id,
          doc.id,
          doc.source,
          chunk.ordinal,
          chunk.text,
          section,
          chunk.start,
          chunk.end,
          chunk.tokens,
          updatedAt,
          acl,
          dims,
        );
        const rowid = Number(lastInsertRowid);
        insertFts.run(rowid, titleText, sectionWords, chunk.searchText);
        if (chunk.embedding && dims !== null) {
          if (!ensured.has(dims)) {
            ensureVectorTable(ctx, dims);
            ensured.add(dims);
          }
          insertVector(ctx, { dims, rowid, tenant: doc.tenant, vector: chunk.embedding });
          changes.added(dims, rowid, chunk.embedding);
        }
      }
      indexDocument(ctx, doc, chunks);
    }
    for (const tenant of new Set(batch.map(({ doc }) => doc.tenant))) bumpDataVersion(ctx, tenant);
    const at = new Date().toISOString();
    for (const key of new Set(batch.map(({ doc }) => lastIngestKey(doc.tenant, doc.source)))) ctx.setMeta(key, at);
    return bumpVectorVersions(ctx, changes);
  });
  const versions = run.immediate();
  return { changes, versions };
}

/** Meta key of when an ingest last changed a source's documents (written or removed), as an ISO time. */
export function lastIngestKey(tenant: string, source: string): string {
  return `last_ingest:${tenant}:${source}`;
}

/** Removes documents of one source with everything derived from them, in one transaction. */
export function removeDocuments(
  ctx: StoreContext,
  options: { tenant: string; source: string; docIds: string[] },
): { changes: VectorChanges; versions: Map<number, number> } {
  ctx.assertWritable("remove documents");
  const { tenant, source } = options;
  const changes = new VectorChanges();
  const versions = ctx.db
    .transaction(() => {
      for (const docId of options.docIds) {
        deleteChunksOf(ctx, { tenant, source, docId }, changes);
        ctx.stmt("DELETE FROM documents WHERE tenant = ? AND id = ? AND source = ?").run(tenant, docId, source);
      }
      if (options.docIds.length > 0) {
        bumpDataVersion(ctx, tenant);
        ctx.setMeta(lastIngestKey(tenant, source), new Date().toISOString());
      }
      return bumpVectorVersions(ctx, changes);
    })
    .immediate();
  return { changes, versions };
}

export function documentHashes(ctx: StoreContext, tenant: string, source: string): Map<string, string> {
  const rows = ctx
    .stmt("SELECT id, content_hash FROM documents WHERE tenant = ? AND source = ?")
    .all(tenant, source) as {
    id: string;
    content_hash: string;
  }[];
  return new Map(rows.map((row) => [row.id, row.content_hash]));
}
