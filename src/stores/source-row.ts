import type { SourceInfo, SourceKind, SourceRecord, TableSchema } from "../spec/source.js";
import { visibleColumns } from "./table-schema.js";

/** The `sources` columns, as both stores hold them (acl as JSON text in SQLite, jsonb in PostgreSQL). */
export interface SourceRow {
  tenant: string;
  name: string;
  kind: SourceKind;
  description: string;
  acl: string | string[];
  path: string | null;
}

/** A source's table files with their schemas, as `listSources` reads them beside the source row. */
export type SourceTables = { file: string; schema: TableSchema }[];

function info(row: SourceRow, counts: { documents: number; chunks: number }): SourceInfo {
  const out: SourceInfo = {
    name: row.name,
    tenant: row.tenant,
    kind: row.kind,
    description: row.description,
    acl: typeof row.acl === "string" ? (JSON.parse(row.acl) as string[]) : row.acl,
    ...counts,
  };
  if (row.path !== null) out.path = row.path;
  return out;
}

export function sourceFromRow(row: SourceRow): SourceRecord {
  const { documents: _d, chunks: _c, ...record } = info(row, { documents: 0, chunks: 0 });
  return record;
}

/** What `listSources` shows of a source: its record, the readable counts, last ingest and tables (by name). */
export function sourceInfo(
  row: SourceRow & { documents: number; chunks: number },
  extra: { lastIngestAt: string | undefined; tables: SourceTables },
): SourceInfo {
  const out = info(row, { documents: Number(row.documents), chunks: Number(row.chunks) });
  if (extra.lastIngestAt !== undefined) out.lastIngestAt = extra.lastIngestAt;
  if (extra.tables.length > 0) {
    out.tables = extra.tables
      .map(({ file, schema }) => ({ ...schema, file, columns: visibleColumns(schema) }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  return out;
}
