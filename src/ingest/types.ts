import type { TableSchema } from "../spec/source.js";
import type { IngestLimits } from "./limits.js";
import type { LoaderRegistry } from "./loader-registry.js";

/** A document as a loader produces it, before the orchestrator adds source, tenant and hash. */
export interface LoadedDocument {
  /** Stable id: the path relative to the ingest root, or `<path>#<key>` for rows and JSONL lines. */
  id: string;
  title: string;
  text: string;
  updatedAt?: string;
  acl: string[];
  metadata: Record<string, unknown>;
}

/** Rows a table loader hands to `store.writeTable`, with their inferred schema. */
export interface LoadedTable {
  /** The table's file key, when a file holds several tables (`book.xlsx#Sheet1`); the file's path when absent. */
  file?: string;
  schema: TableSchema;
  rows: Record<string, string | number | null>[];
}

export interface LoadResult {
  docs: LoadedDocument[];
  table?: LoadedTable;
  /** More tables from the same file (a workbook's sheets), each with its own `file` key. */
  tables?: LoadedTable[];
  /** Problems that did not stop the file from loading (undecodable bytes, unreadable pages). */
  warnings: string[];
}

export interface LoaderInput {
  /** The file's bytes, already checked against the size limit and for emptiness. */
  bytes: Uint8Array;
  /** Id base: the path relative to the ingest root, with `/` separators. */
  relPath: string;
  /** For table loaders: the table (source) name. */
  tableName?: string;
  /** Decoding caps; the defaults (`DEFAULT_INGEST_LIMITS`) when absent. */
  limits?: IngestLimits;
  /** The registry this file was dispatched by, for loaders that route parts (mail attachments) to others. */
  loaders?: LoaderRegistry;
}

/** Turns one file into documents. Throws `InvalidInputError` for malformed input, `LimitExceededError` for input over a cap (skipped). */
export type Loader = (input: LoaderInput) => Promise<LoadResult>;
