/** Caps on what one file may make the ingest do; a file over a cap is skipped with a reason naming the cap. */
export interface IngestLimits {
  /** PDFs with more pages are skipped before any page is read. */
  maxPdfPages: number;
}

export const DEFAULT_INGEST_LIMITS: IngestLimits = {
  maxPdfPages: 2000,
};
