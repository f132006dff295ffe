import type Database from "better-sqlite3";
import type { ChunkEntity, ChunkRecord, DocumentWrite } from "../../spec/document.js";
import { InvalidInputError } from "../../spec/errors.js";
import type { TableSchema } from "../../spec/source.js";
import type { SessionTurn } from "../../spec/store.js";
import { type ChunkRow, chunkFromRow, type DocumentRow, documentFromRow } from "../document-row.js";
import { type KeyRow, keyFromRow } from "../key-row.js";
import { type RunRow, runFromRow } from "../run-row.js";
import { type SourceRow, sourceFromRow } from "../source-row.js";
import type { SpendRow } from "../spend-entry.js";
import { blobVector } from "../sqlite/context.js";
import { openDatabase } from "../sqlite/schema.js";
import { quoteIdent as sqliteIdent } from "../sqlite/tables.js";
import type { PostgresStore, StoreCounts } from "./index.js";

/** Documents written per transaction while copying. */
const BATCH = 50;

export interface MigrateReport {
  /** What the SQLite file holds and what the PostgreSQL store holds after the copy. */
  from: StoreCounts;
  to: StoreCounts;
  /** Names of the counts that differ (empty when the copy is complete). */
  mismatched: string[];
}

/** Counts of a SQLite store, the same measures as `PostgresStore.counts`. */
export function sqliteCounts(db: Database.Database): StoreCounts {
  const n = (sql: string) => Number((db.prepare(sql).get() as { n: number | bigint }).n);
  const tables = db.prepare("SELECT sql_name FROM table_sources").all() as { sql_name: string }[];
  return {
    sources: n("SELECT count(*) AS n FROM sources"),
    documents: n("SELECT count(*) AS n FROM documents"),
    chunks: n("SELECT count(*) AS n FROM chunks"),
    vectors: n("SELECT count(*) AS n FROM chunks WHERE dims IS NOT NULL"),
    tables: tables.length,
    tableRows: tables.reduce((sum, t) => sum + n(`SELECT count(*) AS n FROM ${sqliteIdent(t.sql_name)}`), 0),
    entities: n("SELECT count(DISTINCT entity_id) AS n FROM graph_mentions"),
    mentions: n("SELECT count(*) AS n FROM graph_mentions"),
    runs: n("SELECT count(*) AS n FROM runs"),
    turns: n("SELECT count(*) AS n FROM turns"),
    apiKeys: n("SELECT count(*) AS n FROM api_keys"),
  };
}

interface CopiedChunkRow extends ChunkRow {
  rowid: number;
  dims: number | null;
}

/**
 * Copies a SQLite store into an empty PostgreSQL store: sources, documents with their chunks, vectors and
 * entity mentions, table sources with their rows, runs, sessions, API keys, spend, embedders and the
 * embedding cache. Then compares the counts of both. Data versions start afresh.
 */
export async function migrateSqliteToPostgres(
  fromPath: string,
  to: PostgresStore,
  onProgress: (message: string) => void = () => {},
): Promise<MigrateReport> {
  const before = await to.counts();
  if (before.sources + before.documents + before.tables + before.runs > 0) {
    throw new InvalidInputError(
      `The PostgreSQL store at ${to.url} already holds data; migrate into an empty database.`,
      { field: "to" },
    );
  }
  const db = openDatabase({ path: fromPath, readonly: true });
  try {
    const meta = db.prepare("SELECT key, value FROM meta WHERE key LIKE 'embedder:%'").all() as {
      key: string;
      value: string;
    }[];
    for (const { key, value } of meta) {
      await to.setEmbedderInfo(key.slice("embedder:".length), JSON.parse(value) as { id: string; dimensions: number });
    }
    const sources = db.prepare("SELECT * FROM sources ORDER BY tenant, name").all() as SourceRow[];
    for (const s of sources) await to.putSource(sourceFromRow(s));
    onProgress(`${sources.length} sources`);
    await copyDocuments(db, to, onProgress);
    await copyTables(db, to);
    await copyRecords(db, to);
  } finally {
    db.close();
  }
  const source = openDatabase({ path: fromPath, readonly: true });
  let from: StoreCounts;
  try {
    from = sqliteCounts(source);
  } finally {
    source.close();
  }
  const after = await to.counts();
  const mismatched = (Object.keys(from) as (keyof StoreCounts)[]).filter((key) => from[key] !== after[key]);
  return { from, to: after, mismatched };
}

async function copyDocuments(db: Database.Database, to: PostgresStore, onProgress: (m: string) => void) {
  const docs = db.prepare("SELECT * FROM documents ORDER BY tenant, source, id").iterate() as Iterable<DocumentRow>;
  const chunksOf = db.prepare(
    `SELECT c.rowid AS rowid, c.id, c.doc_id, c.ordinal, c.text, c.section, c.start, c."end", c.tokens, c.dims, f.body
     FROM chunks AS c JOIN chunks_fts AS f ON f.rowid = c.rowid
     WHERE c.tenant = ? AND c.doc_id = ? AND c.source = ? ORDER BY c.ordinal`,
  );
  const mentionsOf = db.prepare(
    `SELECT e.text, m.type, m.role, m.count FROM graph_mentions AS m JOIN graph_entities AS e ON e.id = m.entity_id
     WHERE m.chunk_rowid = ? ORDER BY m.role DESC, e.id`,
  );
  const vectorOf = new Map<number, Database.Statement>();
  let batch: DocumentWrite[] = [];
  let written = 0;
  for (const doc of docs) {
    const chunks: ChunkRecord[] = [];
    for (const row of chunksOf.all(doc.tenant, doc.id, doc.source) as CopiedChunkRow[]) {
      const chunk = chunkFromRow(row);
      if (row.dims !== null) {
        let statement = vectorOf.get(row.dims);
        if (!statement) {
          statement = db.prepare(`SELECT embedding FROM vec_${Number(row.dims)} WHERE rowid = ?`);
          vectorOf.set(row.dims, statement);
        }
        const found = statement.get(BigInt(row.rowid)) as { embedding: Buffer } | undefined;
        if (found) chunk.embedding = blobVector(found.embedding);
      }
      const entities: ChunkEntity[] = [];
      for (const m of mentionsOf.all(row.rowid) as { text: string; type: string; role: number; count: number }[]) {
        for (let i = 0; i < m.count; i++) {
          entities.push({ text: m.text, type: m.type, role: m.role === 1 ? "defines" : "mention" });
        }
      }
      if (entities.length > 0) chunk.entities = entities;
      chunks.push(chunk);
    }
    batch.push({ doc: documentFromRow(doc), chunks });
    if (batch.length >= BATCH) {
      await to.writeDocuments(batch);
      written += batch.length;
      onProgress(`${written} documents`);
      batch = [];
    }
  }
  if (batch.length > 0) await to.writeDocuments(batch);
  written += batch.length;
  onProgress(`${written} documents`);
}

async function copyTables(db: Database.Database, to: PostgresStore) {
  const tables = db.prepare("SELECT tenant, source, file, sql_name, schema FROM table_sources").all() as {
    tenant: string;
    source: string;
    file: string;
    sql_name: string;
    schema: string;
  }[];
  for (const t of tables) {
    const schema = JSON.parse(t.schema) as TableSchema;
    const rows = (db.prepare(`SELECT * FROM ${sqliteIdent(t.sql_name)}`).all() as Record<string, unknown>[]).map(
      (row) => {
        const out: Record<string, string | number | null> = {};
        for (const column of schema.columns) {
          const value = row[column.name];
          out[column.name] = typeof value === "number" || typeof value === "string" ? value : null;
        }
        return out;
      },
    );
    await to.writeTable({ tenant: t.tenant, source: t.source, file: t.file, schema, rows });
  }
}

async function copyRecords(db: Database.Database, to: PostgresStore) {
  for (const run of db.prepare("SELECT * FROM runs ORDER BY started_at").iterate() as Iterable<RunRow>) {
    await to.saveRun(runFromRow(run));
  }
  const turns = db.prepare("SELECT * FROM turns ORDER BY tenant, user, session_id, seq").all() as {
    tenant: string;
    user: string;
    session_id: string;
    role: SessionTurn["role"];
    content: string;
    at: string;
  }[];
  const sessions = new Map<string, { tenant: string; user: string; id: string; turns: SessionTurn[] }>();
  for (const t of turns) {
    const key = JSON.stringify([t.tenant, t.user, t.session_id]);
    let session = sessions.get(key);
    if (!session) {
      session = { tenant: t.tenant, user: t.user, id: t.session_id, turns: [] };
      sessions.set(key, session);
    }
    session.turns.push({ role: t.role, content: t.content, at: t.at });
  }
  for (const s of sessions.values()) {
    await to.appendTurns(s.id, { tenant: s.tenant, user: s.user, roles: [] }, s.turns);
  }
  for (const key of db.prepare("SELECT * FROM api_keys").all() as KeyRow[]) {
    await to.keys.putKey(keyFromRow(key));
  }
  await to.copySpend(db.prepare("SELECT tenant, day, key_id, usd, runs FROM spend").all() as SpendRow[]);
  const cache = db.prepare("SELECT model, hash, vector FROM embedding_cache").all() as {
    model: string;
    hash: string;
    vector: Buffer;
  }[];
  const byModel = new Map<string, Map<string, Float32Array>>();
  for (const row of cache) {
    let entries = byModel.get(row.model);
    if (!entries) {
      entries = new Map();
      byModel.set(row.model, entries);
    }
    entries.set(row.hash, blobVector(row.vector));
  }
  for (const [model, entries] of byModel) await to.cacheEmbeddings(model, entries);
}
