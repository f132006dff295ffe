import type Database from "better-sqlite3";
import { type DocIndexEntry, docIndexEntry } from "./doc-index-text.js";

/**
 * The document-level keyword index: one FTS5 row per document (rowid = the document's rowid) over its title,
 * headings and opening paragraph, for a cheap first pass over documents before searching their chunks.
 * A trigger drops the row with its document, so every path that deletes documents (removeDocuments,
 * removeSource) keeps the index in step in the same transaction.
 */
const DOC_INDEX_DDL = `
CREATE VIRTUAL TABLE docs_fts USING fts5 (
  title, headings, opening, tokenize = 'porter unicode61 remove_diacritics 2'
);
`;

/** Recreated on every open: rebuilding the documents table (a schema migration) drops its triggers. */
const DOC_INDEX_TRIGGER = `
CREATE TRIGGER IF NOT EXISTS docs_fts_forget AFTER DELETE ON documents BEGIN
  DELETE FROM docs_fts WHERE rowid = old.rowid;
END;
`;

/**
 * Creates the document index when missing and fills it from the documents already stored, so stores created
 * before it gain it; makes sure its trigger exists. Runs on every writable open.
 */
export function ensureDocIndexSchema(db: Database.Database): void {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'docs_fts'").get();
  if (exists) {
    db.exec(DOC_INDEX_TRIGGER);
    return;
  }
  db.transaction(() => {
    db.exec(DOC_INDEX_DDL);
    db.exec(DOC_INDEX_TRIGGER);
    const docs = db.prepare("SELECT rowid, tenant, id, source, title, text FROM documents").all() as {
      rowid: number;
      tenant: string;
      id: string;
      source: string;
      title: string;
      text: string;
    }[];
    const sections = db.prepare("SELECT DISTINCT section FROM chunks WHERE tenant = ? AND doc_id = ? AND source = ?");
    const insert = db.prepare("INSERT INTO docs_fts (rowid, title, headings, opening) VALUES (?, ?, ?, ?)");
    for (const doc of docs) {
      const paths = (sections.all(doc.tenant, doc.id, doc.source) as { section: string }[]).map(
        (row) => JSON.parse(row.section) as string[],
      );
      const entry: DocIndexEntry = docIndexEntry({ title: doc.title, text: doc.text, sections: paths });
      insert.run(doc.rowid, entry.title, entry.headings, entry.opening);
    }
  }).immediate();
}
