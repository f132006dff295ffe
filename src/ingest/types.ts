import type { TableSchema } from "../spec/source.js";
import type { IngestLimits } from "./limits.js";

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
  schema: TableSchema;
  rows: Record<string, string | number | null>[];
}

export interface LoadResult {
  docs: LoadedDocument[];
  table?: LoadedTable;
  /** Problems that did not stop the file from loading (undecodable bytes, unreadable pages). */
  warnings: string[];
}

export interface LoaderInput {
  /** The file's bytes, already checked against the size limit and for emptiness. */
  bytes: Uint8Array;
  /** Id base: the path relative to the ingest root, with `/` separators. */
  relPath: string;
  /** For table loaders: the SQL name wanted for the file's table (default: its stem in lower_snake_case). */
  tableName?: string;
  /** Decoding caps (default `DEFAULT_INGEST_LIMITS`). */
  limits?: IngestLimits;
}

/** Turns one file into documents. Throws `InvalidInputError` for malformed input, `LimitExceededError` to skip. */
export type Loader = (input: LoaderInput) => Promise<LoadResult>;
