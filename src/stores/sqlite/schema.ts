import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { StoreError } from "../../spec/errors.js";
import { ensureDocIndexSchema } from "./schema-docs.js";
import { ensureGraphSchema } from "./schema-graph.js";
import { migrateV1toV2 } from "./schema-v2.js";
import { migrateV2toV3 } from "./schema-v3.js";

/** Bump when the DDL changes, and add a step to `MIGRATIONS`. */
export const SCHEMA_VERSION = 3;

/**
 * The first schema, frozen: a new database is created with it and brought up to date by `MIGRATIONS`, so every
 * store (new or old) reaches the current shape the same way.
 */
export const DDL_V1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

CREATE TABLE sources (
  tenant TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, description TEXT NOT NULL,
  acl TEXT NOT NULL, path TEXT,
  PRIMARY KEY (tenant, name)
) WITHOUT ROWID;

CREATE TABLE documents (
  tenant TEXT NOT NULL, id TEXT NOT NULL, source TEXT NOT NULL, title TEXT NOT NULL, updated_at TEXT,
  acl TEXT NOT NULL, content_hash TEXT NOT NULL, text TEXT NOT NULL, metadata TEXT NOT NULL,
  PRIMARY KEY (tenant, id)
);
CREATE INDEX documents_by_source ON documents (tenant, source);

-- acl and updated_at are copied from the document so every filter runs on this table alone.
-- dims is the embedding's dimension (its row lives in vec_<dims>), or NULL without one.
CREATE TABLE chunks (
  rowid INTEGER PRIMARY KEY, tenant TEXT NOT NULL, id TEXT NOT NULL, doc_id TEXT NOT NULL, source TEXT NOT NULL,
  ordinal INTEGER NOT NULL, text TEXT NOT NULL, section TEXT NOT NULL, start INTEGER NOT NULL, "end" INTEGER NOT NULL,
  tokens INTEGER NOT NULL, updated_at TEXT, acl TEXT NOT NULL, dims INTEGER,
  UNIQUE (tenant, id),
  FOREIGN KEY (tenant, doc_id) REFERENCES documents (tenant, id)
);
CREATE INDEX chunks_by_doc ON chunks (tenant, doc_id);
CREATE INDEX chunks_by_source ON chunks (tenant, source);
CREATE INDEX chunks_with_vectors ON chunks (tenant, dims) WHERE dims IS NOT NULL;

CREATE VIRTUAL TABLE chunks_fts USING fts5 (
  title, section, body, tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TABLE table_sources (
  tenant TEXT NOT NULL, source TEXT NOT NULL, sql_name TEXT NOT NULL, schema TEXT NOT NULL,
  PRIMARY KEY (tenant, source)
) WITHOUT ROWID;

CREATE TABLE embedding_cache (
  model TEXT NOT NULL, hash TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (model, hash)
) WITHOUT ROWID;

CREATE TABLE runs (
  run_id TEXT PRIMARY KEY, tenant TEXT NOT NULL, user TEXT NOT NULL, question TEXT NOT NULL,
  started_at TEXT NOT NULL, events TEXT NOT NULL, answer TEXT
);

CREATE TABLE turns (
  tenant TEXT NOT NULL, user TEXT NOT NULL, session_id TEXT NOT NULL, seq INTEGER NOT NULL,
  role TEXT NOT NULL, content TEXT NOT NULL, at TEXT NOT NULL,
  PRIMARY KEY (tenant, user, session_id, seq)
) WITHOUT ROWID;
`;

/** Step n upgrades a database at version n to n + 1 (inside one transaction, foreign keys off). */
const MIGRATIONS: ((db: Database.Database) => void)[] = [migrateV1toV2, migrateV2toV3];

export interface OpenOptions {
  path: string;
  readonly: boolean;
}

/** Opens (creating when needed) the database file, loads sqlite-vec and brings the schema up to date. */
export function openDatabase({ path, readonly }: OpenOptions): Database.Database {
  if (!readonly && path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(path, { readonly, fileMustExist: readonly });
    sqliteVec.load(db);
  } catch (cause) {
    throw new StoreError(`Cannot open the SQLite store at ${path}: ${(cause as Error).message}`, cause, { path });
  }
  if (!readonly) db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  try {
    migrate(db, readonly, path);
    if (!readonly) ensureGraphSchema(db);
    if (!readonly) ensureDocIndexSchema(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

function currentVersion(db: Database.Database): number | undefined {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  if (!hasMeta) return undefined;
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
  return row ? Number(row.value) : undefined;
}

function migrate(db: Database.Database, readonly: boolean, path: string): void {
  const version = currentVersion(db);
  if (version === SCHEMA_VERSION) return;
  if (version !== undefined && version > SCHEMA_VERSION) {
    throw new StoreError(
      `The store at ${path} has schema version ${version}, newer than this ferret understands (${SCHEMA_VERSION}); upgrade ferret.`,
      undefined,
      { path, version },
    );
  }
  if (readonly) {
    throw new StoreError(
      `The store at ${path} is not initialised (or needs an upgrade) and was opened read-only.`,
      undefined,
      {
        path,
        version,
      },
    );
  }
  // Rebuilding a table that others reference needs foreign keys off, and the pragma is a no-op inside a
  // transaction; the migration checks them itself before it commits.
  db.pragma("foreign_keys = OFF");
  try {
    db.transaction(() => {
      let from = version;
      if (from === undefined) {
        db.exec(DDL_V1);
        from = 1;
      }
      for (let v = from; v < SCHEMA_VERSION; v++) MIGRATIONS[v - 1]?.(db);
      const broken = db.pragma("foreign_key_check") as unknown[];
      if (broken.length > 0) {
        throw new StoreError(
          `Upgrading the store at ${path} left ${broken.length} rows without their parent.`,
          undefined,
          {
            path,
            version,
          },
        );
      }
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)").run(String(SCHEMA_VERSION));
    }).immediate();
  } finally {
    db.pragma("foreign_keys = ON");
  }
}
