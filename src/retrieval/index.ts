export { keywordConfidence } from "./calibrate.js";
export { dedupeOverlapping } from "./dedupe.js";
export type { RetrieveOptions, Retriever, SearchMode } from "./retriever.js";
export { reciprocalRankFusion } from "./rrf.js";
export { type CreateRetrieverOptions, createRetriever } from "./search.js";
