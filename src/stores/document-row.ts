import type { ChunkRecord, DocumentHeader, DocumentRecord } from "../spec/document.js";

/** JSON text (SQLite) or an already parsed value (PostgreSQL jsonb). */
function parsed<T>(value: string | T): T {
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}

/** The `documents` columns, as both stores hold them (acl and metadata as JSON text or jsonb). */
export interface DocumentRow {
  tenant: string;
  id: string;
  source: string;
  title: string;
  updated_at: string | null;
  acl: string | string[];
  content_hash: string;
  text: string;
  metadata: string | Record<string, unknown>;
}

const HEADER_COLUMNS = ["tenant", "id", "source", "title", "updated_at", "acl", "content_hash", "metadata"];

/** The SELECT list of a `DocumentRow` from the table aliased `alias`, or of its header alone (no text). */
export function documentColumns(alias: string, options: { text: boolean }): string {
  return [...HEADER_COLUMNS, ...(options.text ? ["text"] : [])].map((c) => `${alias}.${c}`).join(", ");
}

export function documentHeaderFromRow(row: Omit<DocumentRow, "text">): DocumentHeader {
  const doc: DocumentHeader = {
    id: row.id,
    source: row.source,
    tenant: row.tenant,
    title: row.title,
    acl: parsed(row.acl),
    contentHash: row.content_hash,
    metadata: parsed(row.metadata),
  };
  if (row.updated_at !== null) doc.updatedAt = row.updated_at;
  return doc;
}

export function documentFromRow(row: DocumentRow): DocumentRecord {
  return { ...documentHeaderFromRow(row), text: row.text };
}

/** A chunk's columns (section as JSON text; `body` the segmented text keyword search indexes). */
export interface ChunkRow {
  id: string;
  doc_id: string;
  ordinal: number;
  text: string;
  section: string;
  start: number;
  end: number;
  tokens: number;
  body: string;
}

export function chunkFromRow(row: ChunkRow): ChunkRecord {
  return {
    id: row.id,
    docId: row.doc_id,
    ordinal: row.ordinal,
    text: row.text,
    section: JSON.parse(row.section) as string[],
    start: row.start,
    end: row.end,
    tokens: row.tokens,
    searchText: row.body,
  };
}

/**
 * Chunks in the order of `ids` (each once, missing ones left out), from rows that may hold an id several
 * times: the last row of an id wins, so callers sort the rows with the preferred source last.
 */
export function chunksInOrder(ids: string[], rows: ChunkRow[]): ChunkRecord[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const out: ChunkRecord[] = [];
  for (const id of new Set(ids)) {
    const row = byId.get(id);
    if (row) out.push(chunkFromRow(row));
  }
  return out;
}
