/**
 * Caps on what one input file may cost to decode. Every decoder reads its caps from this one object, passed
 * down from `ingestPath` to `loadFile` and the loaders; a file over a cap is skipped with a reason that names
 * the cap (see `LimitExceededError`), and the rest of the folder ingests.
 */
export interface IngestLimits {
  /** Columns of one CSV file (read by the CSV loader). Default 1,000. */
  maxCsvColumns: number;
  /** Bytes of one CSV cell (read by the CSV loader). Default 1 MB. */
  maxCsvCellBytes: number;
}

export const DEFAULT_INGEST_LIMITS: Readonly<IngestLimits> = Object.freeze({
  maxCsvColumns: 1_000,
  maxCsvCellBytes: 1024 * 1024,
});

/** The defaults with the caller's overrides; negative or non-numeric overrides are ignored. */
export function resolveLimits(overrides: Partial<IngestLimits> = {}): IngestLimits {
  const limits: IngestLimits = { ...DEFAULT_INGEST_LIMITS };
  for (const key of Object.keys(limits) as (keyof IngestLimits)[]) {
    const value = overrides[key];
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) limits[key] = Math.floor(value);
  }
  return limits;
}
