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
  /** For table sources: the SQL table name and its columns. */
  table?: TableSchema;
}

export interface TableColumn {
  name: string;
  type: "TEXT" | "INTEGER" | "REAL";
}

export interface TableSchema {
  /** The SQL name queries use: the source name. */
  name: string;
  columns: TableColumn[];
  /** The first column: a row's id is `<path>#<value of this column>`. */
  primaryKey: string;
}
