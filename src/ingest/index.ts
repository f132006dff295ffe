export { type ChunkOptions, type ChunkSpan, chunkDocument, chunkText, DEFAULT_CHUNK_OPTIONS } from "./chunker.js";
export { canonicalJson, contentHash } from "./hash.js";
export { type IngestOptions, type IngestProgress, type IngestSummary, ingestPath } from "./ingest.js";
export { DEFAULT_INGEST_LIMITS, type IngestLimits, resolveLimits } from "./limits.js";
export { DEFAULT_MAX_FILE_BYTES, type FileOutcome, loadFile } from "./load-file.js";
export {
  createLoaderRegistry,
  type LoaderRegistration,
  type LoaderRegistry,
} from "./loader-registry.js";
export { BUILTIN_LOADERS, defaultLoaders, loaderFor, registerLoader, SUPPORTED_EXTENSIONS } from "./loaders/index.js";
export { planSources, readSourcesJson, type SourcePlan, sourceName } from "./sources.js";
export type { LoadedDocument, LoadedTable, Loader, LoaderInput, LoadResult } from "./types.js";
