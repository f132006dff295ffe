import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { EmbeddingModel } from "ai";
import { createOllama } from "ollama-ai-provider-v2";
import { InvalidInputError } from "../spec/errors.js";

export type ApiProvider = "openai" | "ollama" | "openai-compatible";

export interface ApiModelSettings {
  provider: ApiProvider;
  model: string;
  apiKey?: string;
  baseUrl?: string;
  fetch?: typeof fetch;
}

export const OPENAI_BASE_URL = "https://api.openai.com/v1";
export const OLLAMA_BASE_URL = "http://127.0.0.1:11434/api";

/**
 * The AI SDK embedding model for a provider. Every setting is passed explicitly, so the providers never fall back
 * to reading `process.env` when a request is made.
 */
export function createEmbeddingModel(settings: ApiModelSettings): Exclude<EmbeddingModel, string> {
  const { provider, model, apiKey, baseUrl } = settings;
  const fetch = settings.fetch;
  switch (provider) {
    case "openai": {
      if (!apiKey) {
        throw new InvalidInputError(
          `embedder openai:${model} needs an API key: set OPENAI_API_KEY or FERRET_EMBED_API_KEY, or use --embedder none`,
          { field: "apiKey" },
        );
      }
      return createOpenAI({ apiKey, baseURL: baseUrl ?? OPENAI_BASE_URL, fetch }).embedding(model);
    }
    case "ollama":
      return createOllama({ baseURL: baseUrl ?? OLLAMA_BASE_URL, fetch }).embedding(model);
    case "openai-compatible": {
      if (!baseUrl) {
        throw new InvalidInputError(
          `embedder openai-compatible:${model} needs a base URL: set FERRET_EMBED_BASE_URL (for example http://127.0.0.1:8080/v1)`,
          { field: "baseUrl" },
        );
      }
      return createOpenAICompatible({ name: "openai-compatible", baseURL: baseUrl, apiKey, fetch }).embeddingModel(
        model,
      );
    }
  }
}
