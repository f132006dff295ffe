import type Database from "better-sqlite3";

/*
 * Schema v2: a document is identified by (tenant, source, id) and a chunk by (tenant, source, chunk id), so two
 * sources holding the same relative path (`a/README.md` and `b/README.md`, each ingested as `README.md`) keep
 * both documents; and a source may hold several SQL tables, one per CSV file, each with a tenant-unique name
 * (`table_sources` is keyed by (tenant, name), with one row per (tenant, source, file)).
 * Keys list `id` before `source` so that lookups by id alone (no source given) still use them.
 */

const documents = (name: string) => `
CREATE TABLE ${name} (
  tenant TEXT NOT NULL, id TEXT NOT NULL, source TEXT NOT NULL, title TEXT NOT NULL, updated_at TEXT,
  acl TEXT NOT NULL, content_hash TEXT NOT NULL, text TEXT NOT NULL, metadata TEXT NOT NULL,
  PRIMARY KEY (tenant, id, source)
)`;

const chunks = (name: string) => `
CREATE TABLE ${name} (
  rowid INTEGER PRIMARY KEY, tenant TEXT NOT NULL, id TEXT NOT NULL, doc_id TEXT NOT NULL, source TEXT NOT NULL,
  ordinal INTEGER NOT NULL, text TEXT NOT NULL, section TEXT NOT NULL, start INTEGER NOT NULL, "end" INTEGER NOT NULL,
  tokens INTEGER NOT NULL, updated_at TEXT, acl TEXT NOT NULL, dims INTEGER,
  UNIQUE (tenant, id, source),
  FOREIGN KEY (tenant, doc_id, source) REFERENCES documents (tenant, id, source)
)`;

/** `name`: the SQL name queries use (unique per tenant); `file`: the file the rows came from, within the source. */
const tableSources = (name: string) => `
CREATE TABLE ${name} (
  tenant TEXT NOT NULL, name TEXT NOT NULL, source TEXT NOT NULL, file TEXT NOT NULL,
  sql_name TEXT NOT NULL, schema TEXT NOT NULL,
  PRIMARY KEY (tenant, name)
) WITHOUT ROWID`;

const INDEXES = `
CREATE INDEX documents_by_source ON documents (tenant, source);
CREATE INDEX chunks_by_doc ON chunks (tenant, doc_id, source);
CREATE INDEX chunks_by_source ON chunks (tenant, source);
CREATE INDEX chunks_with_vectors ON chunks (tenant, dims) WHERE dims IS NOT NULL;
CREATE UNIQUE INDEX table_sources_by_file ON table_sources (tenant, source, file);
`;

/**
 * v1 -> v2. Documents and chunks are rebuilt keeping their rowids, because the keyword indexes (`chunks_fts`,
 * `docs_fts`), the vector tables, the HNSW side index and the graph's mentions all point at rowids. Triggers on
 * the old tables go with them; their owners recreate them on every open (`ensureDocIndexSchema`,
 * `ensureGraphSchema`). A v1 table source becomes the table of its source's path, keeping its name (v1 named
 * the table after the source and prefixed row ids with that path). Runs record the sources their principal
 * could read (NULL for older runs). Runs with foreign keys off, inside the caller's transaction.
 */
export function migrateV1toV2(db: Database.Database): void {
  db.exec(`${documents("documents_v2")};
    INSERT INTO documents_v2 (rowid, tenant, id, source, title, updated_at, acl, content_hash, text, metadata)
      SELECT rowid, tenant, id, source, title, updated_at, acl, content_hash, text, metadata FROM documents;
    ${chunks("chunks_v2")};
    INSERT INTO chunks_v2 (rowid, tenant, id, doc_id, source, ordinal, text, section, start, "end", tokens,
        updated_at, acl, dims)
      SELECT rowid, tenant, id, doc_id, source, ordinal, text, section, start, "end", tokens, updated_at, acl, dims
      FROM chunks;
    ${tableSources("table_sources_v2")};
    INSERT INTO table_sources_v2 (tenant, name, source, file, sql_name, schema)
      SELECT t.tenant, t.source, t.source, coalesce(s.path, t.source), t.sql_name, t.schema
      FROM table_sources AS t LEFT JOIN sources AS s ON s.tenant = t.tenant AND s.name = t.source;
    DROP TABLE chunks;
    DROP TABLE documents;
    DROP TABLE table_sources;
    ALTER TABLE documents_v2 RENAME TO documents;
    ALTER TABLE chunks_v2 RENAME TO chunks;
    ALTER TABLE table_sources_v2 RENAME TO table_sources;
    ${INDEXES}
    ALTER TABLE runs ADD COLUMN sources TEXT;`);
}
