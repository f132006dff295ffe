import type { ScoredChunk } from "../spec/store.js";

/** Columns every search selects (chunks `c`, documents `d`), in the shape `toScoredChunk` reads. */
export const SCORED_COLUMNS = `c.rowid AS rowid, c.id AS id, c.doc_id AS doc_id, c.source AS source, c.text AS text,
  c.section AS section, c.start AS start, c."end" AS "end", c.updated_at AS updated_at, d.title AS title`;

export interface ScoredRow {
  rowid: number;
  id: string;
  doc_id: string;
  source: string;
  text: string;
  section: string;
  start: number;
  end: number;
  updated_at: string | null;
  title: string;
}

export function toScoredChunk(row: ScoredRow, raw: number): ScoredChunk {
  const section = (JSON.parse(row.section) as string[]).join(" > ");
  const out: ScoredChunk = {
    id: row.id,
    docId: row.doc_id,
    source: row.source,
    title: row.title,
    text: row.text,
    score: raw,
    raw,
    start: row.start,
    end: row.end,
  };
  if (section) out.section = section;
  if (row.updated_at !== null) out.updatedAt = row.updated_at;
  return out;
}
