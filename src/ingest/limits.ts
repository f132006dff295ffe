/**
 * Caps on what one input file may cost to decode. Every decoder reads its caps from this one object,
 * passed down from `ingestPath` to `loadFile` and the loaders; a file over a cap is skipped with a
 * reason that names the cap (see `LimitExceededError`), and the rest of the folder ingests.
 */
export interface IngestLimits {
  /** Bytes of one file on disk; larger files are not read at all. Default 50 MB. */
  maxFileBytes: number;
  /** Bytes of a Markdown front-matter block (between its fences). Default 64 KB. */
  maxFrontMatterBytes: number;
  /**
   * YAML alias expansion budget, as the `yaml` package counts it (alias uses weighted by the size of
   * what they point to). A "billion laughs" document exceeds it at once. Default 50.
   */
  maxFrontMatterAliases: number;
  /** Values (scalars, lists, maps, counting repeats) copied out of front matter into metadata. Default 10,000. */
  maxFrontMatterNodes: number;
  /** Nesting depth of front-matter values. Default 32. */
  maxFrontMatterDepth: number;
  /**
   * Entries in a zip container (DOCX). Real Word files hold tens to a few hundred parts (XML plus
   * media); 2,000 leaves room for image-heavy documents while refusing archives built to exhaust
   * the parser. Default 2,000.
   */
  maxZipEntries: number;
  /**
   * Total uncompressed bytes of a zip container, checked against the sizes the central directory
   * declares before anything is inflated, then again while inflating (a bomb may lie). XML in DOCX
   * compresses about 5-10x, so 200 MB is four times the file cap and far above any real document,
   * yet bounded enough that a bomb never reaches gigabytes of memory. Default 200 MB.
   */
  maxZipBytes: number;
  /**
   * Elements of an HTML page (start tags, counted before parsing). A DOM with its text costs about
   * 2.5 KB per element: measured here, a 7.4 MB page of 285,000 elements took 6.8 s and 730 MB RSS to
   * load. 200,000 (several times the longest real articles) keeps a page near 500 MB and 5 s; denser
   * markup within the file cap could need gigabytes, so it is skipped. Default 200,000.
   */
  maxHtmlElements: number;
  /**
   * Elements of an HTML page that the boilerplate extractor (readability, `maxElemsToParse`) will
   * score; it takes about 0.2 ms per element here. Larger pages keep their whole cleaned body
   * (navigation, header, footer, sidebars and banners still removed). Default 15,000.
   */
  maxHtmlScoredElements: number;
  /** Pages of one PDF (read by the PDF loader). Default 2,000. */
  maxPdfPages: number;
  /** Columns of one CSV file (read by the CSV loader). Default 1,000. */
  maxCsvColumns: number;
  /** Bytes of one CSV cell (read by the CSV loader). Default 1 MB. */
  maxCsvCellBytes: number;
  /** Wall time to load, chunk and extract entities of one file in a parse worker; the worker is replaced. Default 60 s. */
  parseTimeoutMs: number;
  /** Heap (old generation) of each parse worker, in MB: a file that needs more fails alone. Default 2,048. */
  parseHeapMb: number;
}

export const DEFAULT_INGEST_LIMITS: Readonly<IngestLimits> = Object.freeze({
  maxFileBytes: 50 * 1024 * 1024,
  maxFrontMatterBytes: 64 * 1024,
  maxFrontMatterAliases: 50,
  maxFrontMatterNodes: 10_000,
  maxFrontMatterDepth: 32,
  maxZipEntries: 2_000,
  maxZipBytes: 200 * 1024 * 1024,
  maxHtmlElements: 200_000,
  maxHtmlScoredElements: 15_000,
  maxPdfPages: 2_000,
  maxCsvColumns: 1_000,
  maxCsvCellBytes: 1024 * 1024,
  parseTimeoutMs: 60_000,
  parseHeapMb: 2_048,
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
