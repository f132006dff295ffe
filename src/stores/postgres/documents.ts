import type pg from "pg";
import type { ChunkRecord, DocumentHeader, DocumentRecord, DocumentWrite } from "../../spec/document.js";
import { entityKey } from "../../spec/graph.js";
import type { Principal } from "../../spec/principal.js";
import type { SourceInfo, SourceRecord } from "../../spec/source.js";
import type { DocumentLookup } from "../../spec/store.js";
import { searchText } from "../../text/tokenize.js";
import {
  type ChunkRow,
  chunksInOrder,
  type DocumentRow,
  documentColumns,
  documentFromRow,
  documentHeaderFromRow,
} from "../document-row.js";
import { checkBatchDimensions, mismatch } from "../embedder-dims.js";
import { isOwner } from "../principal.js";
import { type SourceRow, type SourceTables, sourceInfo } from "../source-row.js";
import { docIndexEntry } from "../sqlite/doc-index-text.js";
import { indexWords } from "./bm25.js";
import { compactStats } from "./bm25-stats.js";
import { Params } from "./db.js";
import { aclAllows, chunkFilter } from "./filters.js";
import { ensureHnswIndex, TS_CONFIG } from "./schema.js";
import { dropTables } from "./tables.js";

export { foldText } from "./bm25.js";

/** Meta keys (global table, no tenant data). */
export const metaKey = {
  dataVersion: (tenant: string) => `data_version:${tenant}`,
  lastIngest: (tenant: string, source: string) => `last_ingest:${tenant}:${source}`,
  embedder: (tenant: string) => `embedder:${tenant}`,
};

export async function getMeta(client: pg.ClientBase, key: string): Promise<string | undefined> {
  const row = await client.query<{ value: string }>("SELECT value FROM meta WHERE key = $1", [key]);
  return row.rows[0]?.value;
}

export async function setMeta(client: pg.ClientBase, key: string, value: string): Promise<void> {
  await client.query(
    "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    [key, value],
  );
}

/**
 * The end of a write to a tenant: its statistics folded, then its data version moved. The version's row is one
 * per tenant, locked from the bump until the commit, so it goes last: a concurrent writer of the tenant then
 * waits only for the commit, not for the folds (at 40k chunks with 4 writers the bump waited 85 ms on average
 * behind a fold of 320 ms when it came first).
 */
async function endWrite(client: pg.ClientBase, tenant: string): Promise<void> {
  await compactStats(client, tenant);
  await bumpDataVersion(client, tenant);
}

/** Increments a counter in one statement, so concurrent writers never lose a bump. */
export async function bumpDataVersion(client: pg.ClientBase, tenant: string): Promise<void> {
  await client.query(
    `INSERT INTO meta (key, value) VALUES ($1, '1')
     ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text`,
    [metaKey.dataVersion(tenant)],
  );
}

export async function dataVersion(client: pg.ClientBase, tenant: string): Promise<number> {
  return Number((await getMeta(client, metaKey.dataVersion(tenant))) ?? "0");
}

/** Dimension of the vectors a tenant already holds, if any. */
export async function storedDims(client: pg.ClientBase, tenant: string): Promise<number | undefined> {
  const row = await client.query<{ dims: number }>(
    "SELECT dims FROM chunks WHERE tenant = $1 AND dims IS NOT NULL LIMIT 1",
    [tenant],
  );
  return row.rows[0]?.dims;
}

export interface EmbedderInfo {
  id: string;
  dimensions: number;
}

export async function getEmbedderInfo(client: pg.ClientBase, tenant: string): Promise<EmbedderInfo | undefined> {
  const value = await getMeta(client, metaKey.embedder(tenant));
  return value === undefined ? undefined : (JSON.parse(value) as EmbedderInfo);
}

/** Records the embedder; refuses one that disagrees with vectors the tenant already holds. */
export async function setEmbedderInfo(client: pg.ClientBase, tenant: string, info: EmbedderInfo): Promise<void> {
  const dims = await storedDims(client, tenant);
  const previous = await getEmbedderInfo(client, tenant);
  if (dims !== undefined && (dims !== info.dimensions || (previous && previous.id !== info.id))) {
    throw mismatch({ tenant, expected: previous ?? { id: "unknown", dimensions: dims }, got: info });
  }
  await setMeta(client, metaKey.embedder(tenant), JSON.stringify({ id: info.id, dimensions: info.dimensions }));
}

/** Refuses, before anything is written, a batch whose vectors disagree with the tenant's (or with each other). */
async function checkDimensions(client: pg.ClientBase, batch: DocumentWrite[]): Promise<Set<number>> {
  const expected = new Map<string, number | undefined>();
  for (const { doc } of batch) {
    if (expected.has(doc.tenant)) continue;
    expected.set(
      doc.tenant,
      (await storedDims(client, doc.tenant)) ?? (await getEmbedderInfo(client, doc.tenant))?.dimensions,
    );
  }
  return checkBatchDimensions(batch, (tenant) => expected.get(tenant));
}

/** A vector as a PostgreSQL array literal (finite values only; NaN would poison every distance). */
function arrayLiteral(vector: Float32Array): string {
  const parts: string[] = [];
  for (const value of vector) parts.push(Number.isFinite(value) ? String(value) : "0");
  return `{${parts.join(",")}}`;
}

const weighted = (param: string, weight: "A" | "B" | "D") =>
  `setweight(to_tsvector('${TS_CONFIG}', ${param}), '${weight}')`;

/**
 * Writes one document (replacing its previous version: chunks, vectors and mentions go by cascade) and its
 * chunks in one multi-row insert. Returns the new chunks' rowids by chunk id.
 */
async function writeOne(client: pg.ClientBase, { doc, chunks }: DocumentWrite): Promise<Map<string, number>> {
  const key = [doc.tenant, doc.id, doc.source];
  await client.query("DELETE FROM chunks WHERE tenant = $1 AND doc_id = $2 AND source = $3", key);
  const entry = docIndexEntry({ title: doc.title, text: doc.text, sections: chunks.map((c) => c.section) });
  await client.query(
    `INSERT INTO documents (tenant, id, source, title, updated_at, acl, content_hash, text, metadata, doc_tsv)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,
       ${weighted("$10", "A")} || ${weighted("$11", "B")} || ${weighted("$12", "D")})
     ON CONFLICT (tenant, id, source) DO UPDATE SET title = excluded.title, updated_at = excluded.updated_at,
       acl = excluded.acl, content_hash = excluded.content_hash, text = excluded.text,
       metadata = excluded.metadata, doc_tsv = excluded.doc_tsv`,
    [
      ...key,
      doc.title,
      doc.updatedAt ?? null,
      JSON.stringify(doc.acl),
      doc.contentHash,
      doc.text,
      JSON.stringify(doc.metadata),
      indexWords(entry.title),
      indexWords(entry.headings),
      indexWords(entry.opening),
    ],
  );
  if (chunks.length === 0) return new Map();
  const titleText = indexWords(searchText(doc.title));
  const sectionText = new Map<string, string>();
  const cols: unknown[][] = Array.from({ length: 13 }, () => []);
  for (const chunk of chunks) {
    const section = JSON.stringify(chunk.section);
    let words = sectionText.get(section);
    if (words === undefined) {
      words = indexWords(searchText(chunk.section.join(" ")));
      sectionText.set(section, words);
    }
    const folded = indexWords(chunk.searchText);
    const row = [
      chunk.id,
      chunk.ordinal,
      chunk.text,
      section,
      chunk.start,
      chunk.end,
      chunk.tokens,
      chunk.searchText,
      folded,
      words,
      chunk.embedding ? chunk.embedding.length : null,
      chunk.embedding ? arrayLiteral(chunk.embedding) : null,
      `${titleText} ${titleText} ${words} ${folded}`,
    ];
    row.forEach((value, i) => {
      cols[i]?.push(value);
    });
  }
  const result = await client.query<{ id: string; rowid: number }>(
    `INSERT INTO chunks (tenant, doc_id, source, updated_at, acl, id, ordinal, text, section, start, "end", tokens,
       body, tsv, dims, embedding, bm25)
     SELECT $1, $2, $3, $4, $5::jsonb, u.id, u.ordinal, u.text, u.section, u.start, u."end", u.tokens, u.body,
       setweight(to_tsvector('${TS_CONFIG}', $6), 'A') || setweight(to_tsvector('${TS_CONFIG}', u.section_words), 'B')
         || setweight(to_tsvector('${TS_CONFIG}', u.folded), 'D'),
       u.dims, u.embedding::real[], u.bm25
     FROM unnest($7::text[], $8::int[], $9::text[], $10::text[], $11::int[], $12::int[], $13::int[], $14::text[],
       $15::text[], $16::text[], $17::int[], $18::text[], $19::text[])
       AS u (id, ordinal, text, section, start, "end", tokens, body, folded, section_words, dims, embedding, bm25)
     RETURNING id, rowid`,
    [...key, doc.updatedAt ?? null, JSON.stringify(doc.acl), titleText, ...cols],
  );
  return new Map(result.rows.map((row) => [row.id, Number(row.rowid)]));
}

/**
 * Writes a batch in the caller's transaction: each document replaces its previous version, its mentions
 * go in with its chunks, and each tenant's data version moves once.
 */
export async function writeDocuments(
  client: pg.ClientBase,
  batch: DocumentWrite[],
  options: { hnsw: boolean; indexed: Set<number>; setTenant: (tenant: string) => Promise<void> },
): Promise<void> {
  const dims = await checkDimensions(client, batch);
  if (options.hnsw) {
    for (const d of dims) {
      if (options.indexed.has(d)) continue;
      await ensureHnswIndex(client, d);
      options.indexed.add(d);
    }
  }
  // Writers of the same document serialise on it; rows are locked in a stable order across the batch.
  const ordered = [...batch].sort((a, b) =>
    `${a.doc.tenant}\u0000${a.doc.source}\u0000${a.doc.id}` < `${b.doc.tenant}\u0000${b.doc.source}\u0000${b.doc.id}`
      ? -1
      : 1,
  );
  const at = new Date().toISOString();
  const touched = new Map<string, Set<string>>();
  for (const write of ordered) {
    await options.setTenant(write.doc.tenant);
    const rowids = await writeOne(client, write);
    await writeMentions(client, write, rowids);
    let sources = touched.get(write.doc.tenant);
    if (!sources) {
      sources = new Set();
      touched.set(write.doc.tenant, sources);
    }
    sources.add(write.doc.source);
  }
  for (const [tenant, sources] of touched) {
    await options.setTenant(tenant);
    await endWrite(client, tenant);
    for (const source of sources) await setMeta(client, metaKey.lastIngest(tenant, source), at);
  }
}

/** Longest entity text kept (as the SQLite store). */
const MAX_ENTITY_LENGTH = 120;

/** The document's entity mentions, after its chunks (their old mentions went with the old chunks). */
async function writeMentions(
  client: pg.ClientBase,
  { doc, chunks }: DocumentWrite,
  rowids: Map<string, number>,
): Promise<void> {
  const known = new Map<string, { id: number; type: string }>();
  for (const chunk of chunks) {
    const rowid = rowids.get(chunk.id);
    if (rowid === undefined || !chunk.entities) continue;
    for (const mention of chunk.entities) {
      const key = entityKey(mention.text);
      if (key.length === 0 || key.length > MAX_ENTITY_LENGTH) continue;
      let entity = known.get(key);
      if (entity === undefined) {
        const row = await client.query<{ id: number; type: string }>(
          `INSERT INTO graph_entities (tenant, key, type, text) VALUES ($1, $2, $3, $4)
           ON CONFLICT (tenant, key) DO UPDATE SET key = excluded.key RETURNING id, type`,
          [doc.tenant, key, mention.type, mention.text],
        );
        const found = row.rows[0];
        if (!found) continue;
        entity = { id: Number(found.id), type: found.type };
        known.set(key, entity);
      }
      if (entity.type === "title" && mention.type !== "title") {
        await client.query("UPDATE graph_entities SET type = $1 WHERE id = $2", [mention.type, entity.id]);
        entity.type = mention.type;
      }
      await client.query(
        `INSERT INTO graph_mentions (chunk_rowid, entity_id, tenant, type, role, count) VALUES ($1, $2, $3, $4, $5, 1)
         ON CONFLICT (chunk_rowid, entity_id) DO UPDATE SET count = graph_mentions.count + 1,
           role = greatest(graph_mentions.role, excluded.role),
           type = CASE WHEN graph_mentions.type = 'title' THEN excluded.type ELSE graph_mentions.type END`,
        [rowid, entity.id, doc.tenant, mention.type, mention.role === "defines" ? 1 : 0],
      );
    }
  }
}

/** Removes documents of one source (chunks, vectors and mentions go by cascade). */
export async function removeDocuments(
  client: pg.ClientBase,
  options: { tenant: string; source: string; docIds: string[] },
): Promise<void> {
  if (options.docIds.length === 0) return;
  await client.query("DELETE FROM documents WHERE tenant = $1 AND source = $2 AND id = ANY ($3)", [
    options.tenant,
    options.source,
    options.docIds,
  ]);
  await endWrite(client, options.tenant);
  await setMeta(client, metaKey.lastIngest(options.tenant, options.source), new Date().toISOString());
}

export async function documentHashes(
  client: pg.ClientBase,
  tenant: string,
  source: string,
): Promise<Map<string, string>> {
  const rows = await client.query<{ id: string; content_hash: string }>(
    "SELECT id, content_hash FROM documents WHERE tenant = $1 AND source = $2",
    [tenant, source],
  );
  return new Map(rows.rows.map((row) => [row.id, row.content_hash]));
}

export async function getDocument(
  client: pg.ClientBase,
  docId: string,
  principal: Principal,
  options: DocumentLookup = {},
): Promise<DocumentRecord | undefined> {
  const row = await documentRow<DocumentRow>(client, { text: true }, docId, principal, options);
  return row && documentFromRow(row);
}

/** `getDocument` without the text column: the text of a long document is not read for its metadata. */
export async function getDocumentHeader(
  client: pg.ClientBase,
  docId: string,
  principal: Principal,
  options: DocumentLookup = {},
): Promise<DocumentHeader | undefined> {
  const row = await documentRow<Omit<DocumentRow, "text">>(client, { text: false }, docId, principal, options);
  return row && documentHeaderFromRow(row);
}

async function documentRow<Row extends pg.QueryResultRow>(
  client: pg.ClientBase,
  columns: { text: boolean },
  docId: string,
  principal: Principal,
  options: DocumentLookup,
): Promise<Row | undefined> {
  const p = new Params();
  const where = chunkFilter(p, { principal }, "d");
  const bySource = options.source === undefined ? "" : `AND d.source = ${p.add(options.source)}`;
  const sql = `SELECT ${documentColumns("d", columns)} FROM documents AS d WHERE d.id = ${p.add(docId)} ${bySource}
    AND ${where} ORDER BY d.source COLLATE "C" LIMIT 1`;
  return (await client.query<Row>(sql, p.values)).rows[0];
}

export async function getChunks(
  client: pg.ClientBase,
  ids: string[],
  principal: Principal,
  options: DocumentLookup = {},
): Promise<ChunkRecord[]> {
  if (ids.length === 0) return [];
  const p = new Params();
  const where = chunkFilter(p, { principal });
  const bySource = options.source === undefined ? "" : `AND c.source = ${p.add(options.source)}`;
  const rows = (
    await client.query<ChunkRow>(
      `SELECT c.id, c.source, c.doc_id, c.ordinal, c.text, c.section, c.start, c."end", c.tokens, c.body
       FROM chunks AS c WHERE c.id = ANY (${p.add(ids)}) ${bySource} AND ${where}
       ORDER BY c.source COLLATE "C" DESC`,
      p.values,
    )
  ).rows;
  return chunksInOrder(ids, rows);
}

/** Registers or updates a source; a new or changed one bumps the data version. */
export async function putSource(client: pg.ClientBase, source: SourceRecord): Promise<void> {
  const result = await client.query(
    `INSERT INTO sources (tenant, name, kind, description, acl, path) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (tenant, name) DO UPDATE SET kind = excluded.kind, description = excluded.description,
       acl = excluded.acl, path = excluded.path
     WHERE sources.kind IS DISTINCT FROM excluded.kind OR sources.description IS DISTINCT FROM excluded.description
       OR sources.acl IS DISTINCT FROM excluded.acl OR sources.path IS DISTINCT FROM excluded.path`,
    [source.tenant, source.name, source.kind, source.description, JSON.stringify(source.acl), source.path ?? null],
  );
  if (result.rowCount) await bumpDataVersion(client, source.tenant);
}

interface SourceRowWithCounts extends SourceRow {
  documents: number;
  chunks: number;
  tables: SourceTables;
  last_ingest: string | null;
}

/** Sources the principal may read; counts include only the documents (and chunks) it may read. */
export async function listSources(client: pg.ClientBase, principal: Principal): Promise<SourceInfo[]> {
  const p = new Params();
  const owner = isOwner(principal);
  const docAcl = owner ? "" : `AND ${aclAllows(p, "d.acl", principal)}`;
  const chunkAcl = owner ? "" : `AND ${aclAllows(p, "c.acl", principal)}`;
  const sourceAcl = owner ? "" : `AND ${aclAllows(p, "s.acl", principal)}`;
  const rows = (
    await client.query<SourceRowWithCounts>(
      `SELECT s.tenant, s.name, s.kind, s.description, s.acl, s.path,
         coalesce((SELECT jsonb_agg(jsonb_build_object('file', t.file, 'schema', t.schema))
            FROM table_sources AS t WHERE t.tenant = s.tenant AND t.source = s.name), '[]'::jsonb) AS tables,
         (SELECT count(*) FROM documents AS d WHERE d.tenant = s.tenant AND d.source = s.name ${docAcl}) AS documents,
         (SELECT count(*) FROM chunks AS c WHERE c.tenant = s.tenant AND c.source = s.name ${chunkAcl}) AS chunks,
         (SELECT m.value FROM meta AS m WHERE m.key = 'last_ingest:' || s.tenant || ':' || s.name) AS last_ingest
       FROM sources AS s
       WHERE s.tenant = ${p.add(principal.tenant)} ${sourceAcl}
       ORDER BY s.name COLLATE "C"`,
      p.values,
    )
  ).rows;
  return rows.map((row) => sourceInfo(row, { lastIngestAt: row.last_ingest ?? undefined, tables: row.tables }));
}

/** Removes a source with its documents (chunks, vectors, mentions by cascade) and tables. */
export async function removeSource(client: pg.ClientBase, tenant: string, name: string): Promise<void> {
  await client.query("DELETE FROM documents WHERE tenant = $1 AND source = $2", [tenant, name]);
  await dropTables(client, { tenant, source: name });
  await client.query("DELETE FROM sources WHERE tenant = $1 AND name = $2", [tenant, name]);
  await endWrite(client, tenant);
}
