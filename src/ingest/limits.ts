/**
 * Limits on what one ingest may spend on one file. A file that hits one is reported in the summary with
 * the limit it hit, and the rest of the ingest goes on.
 */
export interface IngestLimits {
  /** Wall time to load, chunk and extract entities of one file in a parse worker; the worker is replaced. */
  parseTimeoutMs: number;
  /** Heap (old generation) of each parse worker, in MB: a file that needs more fails alone. */
  parseHeapMb: number;
}

export const DEFAULT_INGEST_LIMITS: IngestLimits = {
  parseTimeoutMs: 60_000,
  parseHeapMb: 2_048,
};
