import type { ChunkRecord, DocumentRecord } from "../../spec/document.js";
import type { KeywordQuery, ScoredDocument } from "../../spec/store.js";
import type { StoreContext } from "./context.js";
import { docIndexEntry } from "./doc-index-text.js";
import { chunkFilter } from "./filters.js";
import { matchExpression } from "./keyword-search.js";

/** bm25() column weights of docs_fts: title, headings, opening. */
export const DOC_BM25_WEIGHTS = { title: 3.0, headings: 1.5, opening: 1.0 } as const;

/** Writes (or replaces) a document's row in the document index; call inside the write's transaction. */
export function indexDocument(ctx: StoreContext, doc: DocumentRecord, chunks: readonly ChunkRecord[]): void {
  const row = ctx
    .stmt("SELECT rowid FROM documents WHERE tenant = ? AND id = ? AND source = ?")
    .get(doc.tenant, doc.id, doc.source) as { rowid: number } | undefined;
  if (row === undefined) return;
  const entry = docIndexEntry({ title: doc.title, text: doc.text, sections: chunks.map((c) => c.section) });
  ctx.stmt("DELETE FROM docs_fts WHERE rowid = ?").run(row.rowid);
  ctx
    .stmt("INSERT INTO docs_fts (rowid, title, headings, opening) VALUES (?, ?, ?, ?)")
    .run(row.rowid, entry.title, entry.headings, entry.opening);
}

/** True when the document index exists (a read-only store opened before it was added has none). */
function hasDocIndex(ctx: StoreContext): boolean {
  return ctx.stmt("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'docs_fts'").get() !== undefined;
}

/**
 * BM25 over documents' title, headings and opening, for the documents the principal may read (tenant,
 * source and document ACL, sources and since applied in the query). `raw` is -bm25 (higher is better).
 */
export function documentSearch(ctx: StoreContext, query: KeywordQuery): ScoredDocument[] {
  const match = matchExpression(query.terms);
  if (match === undefined || query.k <= 0 || !hasDocIndex(ctx)) return [];
  // The documents table has the columns the chunk filter reads (tenant, acl, source, updated_at); docId and
  // docIds are not document-pass filters.
  const filter = chunkFilter({ principal: query.principal, sources: query.sources, since: query.since });
  const { title, headings, opening } = DOC_BM25_WEIGHTS;
  const rows = ctx
    .stmt(
      `SELECT c.id AS id, c.source AS source, c.title AS title, c.updated_at AS updated_at,
         -bm25(docs_fts, ${title}, ${headings}, ${opening}) AS raw
       FROM docs_fts CROSS JOIN documents AS c ON c.rowid = docs_fts.rowid
       WHERE docs_fts MATCH ? AND ${filter.sql}
       ORDER BY raw DESC
       LIMIT ?`,
    )
    .all(match, ...filter.params, Math.floor(query.k)) as {
    id: string;
    source: string;
    title: string;
    updated_at: string | null;
    raw: number;
  }[];
  return rows.map((row) => ({
    docId: row.id,
    source: row.source,
    title: row.title,
    raw: row.raw,
    ...(row.updated_at !== null ? { updatedAt: row.updated_at } : {}),
  }));
}
