export { type ApiEmbedderOptions, createApiEmbedder } from "./api-embedder.js";
export { type ApiModelSettings, type ApiProvider, createEmbeddingModel } from "./api-models.js";
export { checkEmbedderCompatible } from "./check-compatible.js";
export { type EmbedChunksOptions, type EmbedChunksResult, embedChunks, sha256Hex } from "./embed-chunks.js";
export { createHashingEmbedder, hashVector } from "./hashing.js";
export { type LocalEmbedderOptions, loadLocalEmbedder } from "./local.js";
export { type ResolveEmbedderOptions, resolveEmbedder } from "./resolve.js";
export { type RetryPolicy, retryAfterFromHeaders, withRetry } from "./retry.js";
