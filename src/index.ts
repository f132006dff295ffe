/** ferret: agentic RAG for TypeScript. The library API. */

export { resolveEngine } from "./engine.js";
export {
  type AskOptions,
  createFerret,
  DEFAULT_DB,
  type Ferret,
  type FerretIngestOptions,
  type FerretOptions,
  type FerretSearchOptions,
} from "./ferret.js";
export type { IngestSummary } from "./ingest/ingest.js";
export { DEFAULT_INGEST_LIMITS, type IngestLimits } from "./ingest/limits.js";
export { createOfflineEngine } from "./models/offline/index.js";
export type { RetrieveOptions, Retriever, SearchMode } from "./retrieval/retriever.js";
export { createRetriever } from "./retrieval/search.js";
export * from "./spec/index.js";
export { createSqliteStore } from "./stores/sqlite/index.js";
