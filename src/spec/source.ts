export type SourceKind = "documents" | "table" | "jsonl";

/** A named knowledge source as it is registered in a store. */
export interface SourceRecord {
  name: string;
  tenant: string;
  kind: SourceKind;
  description: string;
  /** Roles allowed to read; empty means everyone in the tenant. */
  acl: string[];
  /** Where it was ingested from (relative when given relative). */
  path?: string;
}

export interface SourceInfo extends SourceRecord {
  documents: number;
  chunks: number;
  /** When an ingest last changed this source's documents (written or removed), ISO 8601; absent before. */
  lastIngestAt?: string;
  /** The SQL tables the source holds (one per CSV file), each with its name and columns, by name. */
  tables?: TableSchema[];
}

export interface TableColumn {
  name: string;
  type: "TEXT" | "INTEGER" | "REAL";
}

export interface TableSchema {
  /**
   * The SQL name queries use, unique in the tenant: the file's stem in lower_snake_case (a `table` source's
   * CSV: the source name), with a `_2` suffix when another file took it first.
   */
  name: string;
  /** The file the rows came from, relative to the ingest root (set by the store). */
  file?: string;
  columns: TableColumn[];
  /** The first column: a row's id is `<path>#<value of this column>`. */
  primaryKey: string;
}
