import type Database from "better-sqlite3";

/**
 * Tables of the entity graph. Entities are a per-tenant dictionary; mentions tie an entity to a chunk by
 * the chunk's rowid, and a trigger drops them with the chunk, so replacing or removing a document (or a
 * source) drops its mentions in the same transaction. Edges are derived from mentions at read time.
 * Idempotent: runs on every writable open, so stores created before the graph gain it.
 */
const GRAPH_DDL = `
CREATE TABLE IF NOT EXISTS graph_entities (
  id INTEGER PRIMARY KEY, tenant TEXT NOT NULL, key TEXT NOT NULL, type TEXT NOT NULL, text TEXT NOT NULL,
  UNIQUE (tenant, key)
);

-- role: 0 mention, 1 defines (the entity comes from the document's title).
CREATE TABLE IF NOT EXISTS graph_mentions (
  chunk_rowid INTEGER NOT NULL, entity_id INTEGER NOT NULL, type TEXT NOT NULL, role INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (chunk_rowid, entity_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS graph_mentions_by_entity ON graph_mentions (entity_id, chunk_rowid);

CREATE TRIGGER IF NOT EXISTS graph_forget_chunk AFTER DELETE ON chunks BEGIN
  DELETE FROM graph_mentions WHERE chunk_rowid = old.rowid;
END;
`;

/** Creates the graph tables and the trigger that keeps them in step with chunks (no-op when present). */
export function ensureGraphSchema(db: Database.Database): void {
  db.exec(GRAPH_DDL);
}
