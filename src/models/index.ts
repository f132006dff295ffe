export { answerFromEvidence, noEvidenceAnswer, toDraftAnswer } from "./answer.js";
export { type AnswerStream, partialClaimsText, streamAnswer } from "./answer-stream.js";
export { type CallSettings, callModel, type LlmRole, type TokenCounts, typedCallError, usageEntry } from "./call.js";
export {
  DEFAULT_CONFIG_FILE,
  loadModelsConfig,
  type ModelConfigEntry,
  type ModelsConfig,
  parseModelsConfig,
} from "./config.js";
export { ModelOutputError } from "./errors.js";
export { coverageThreshold, gradeEvidence } from "./grade.js";
export { createLlmEngine, type LlmEngine, type LlmEngineOptions } from "./llm-engine.js";
export { planWithTools } from "./plan.js";
export { planWithText } from "./plan-text.js";
export { callCost, lookupPricing, type ModelPricing, PRICE_TABLE, type PriceOverride } from "./pricing.js";
export * as prompts from "./prompts.js";
export { PROVIDERS, type Provider, type ResolvedModel, type ResolveModelOptions, resolveModel } from "./resolve.js";
export {
  DEFAULT_RETRY_POLICY,
  errorStatus,
  isRetryable,
  type RetryPolicy,
  retryAfterMs,
  type Sleep,
  sleep,
  withRetry,
} from "./retry.js";
export { rewriteQuestion } from "./rewrite.js";
export { routeQuestion } from "./route.js";
export { answerReplySchema, gradeReplySchema, routeReplySchema } from "./schemas.js";
export { generateStructured, repairStructured } from "./structured.js";
export { parseLooseJson, parseTextProtocol, TextProtocolError, type TextProtocolReply } from "./text-protocol.js";
