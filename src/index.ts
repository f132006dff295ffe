/** ferret: agentic RAG for TypeScript. The library API. */

export type { AgentLimits, AgentMode, CheckpointRequest, CheckpointSettings } from "./agent/options.js";
export { DEFAULT_PRESET, PRESET_NAMES, PRESETS, type PresetSettings } from "./config/presets.js";
export { type ModelChoice, resolveEngine } from "./engine.js";
export {
  type AskOptions,
  createFerret,
  DEFAULT_DB,
  type EmbeddingModelObject,
  type Ferret,
  type FerretIngestOptions,
  type FerretOptions,
  type FerretSearchOptions,
  type FerretUploadOptions,
  type Toolbox,
} from "./ferret.js";
export type { IngestSummary } from "./ingest/ingest.js";
export { DEFAULT_INGEST_LIMITS, type IngestLimits } from "./ingest/limits.js";
export type { LoaderRegistration, LoaderRegistry } from "./ingest/loader-registry.js";
export { registerLoader } from "./ingest/loaders/index.js";
export type { LoadedDocument, LoadedTable, Loader, LoaderInput, LoadResult } from "./ingest/types.js";
export type { ApiKeyInfo, ApiKeys, CreatedKey, CreateKeyOptions, SpendLedger } from "./keys/index.js";
export { hashKey, parseRate, utcDay } from "./keys/index.js";
export type { AddDocument, AddOptions } from "./library/add-documents.js";
export type { AskToolOutput, AsToolOptions, SearchToolOutput } from "./library/as-tool.js";
export type { DocumentChunk, DocumentEntry } from "./library/documents.js";
export type { UploadFile } from "./library/upload.js";
export { ModelOutputError } from "./models/errors.js";
export { createOfflineEngine } from "./models/offline/index.js";
export type { LanguageModelObject } from "./models/resolve.js";
export type { RetrieveOptions, Retriever, SearchMode } from "./retrieval/retriever.js";
export { createRetriever } from "./retrieval/search.js";
export * from "./spec/index.js";
export { createSqliteStore } from "./stores/sqlite/index.js";
export { quoteSpan } from "./text/quote-span.js";
export type { AnyTool } from "./tools/define-tool.js";
