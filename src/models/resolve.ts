/** `provider:model` strings to AI SDK language models, with tool support and prices attached. */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { createOllama } from "ollama-ai-provider-v2";
import { InvalidInputError } from "../spec/errors.js";
import { loadModelsConfig, type ModelConfigEntry, type ModelsConfig } from "./config.js";
import { lookupPricing, type ModelPricing, type PriceOverride } from "./pricing.js";
import { type ProviderKind, parseProviderSpec } from "./provider-spec.js";

export const PROVIDERS = ["openai", "anthropic", "ollama", "openai-compatible"] as const;
export type Provider = (typeof PROVIDERS)[number];

/** An AI SDK language model object (what `openai("gpt-4o-mini")` returns), as opposed to a name. */
export type LanguageModelObject = Exclude<LanguageModel, string>;

export interface ResolvedModel {
  /** `provider:model`, as given (for a model object: its provider's name, then its model id). */
  id: string;
  /** `other` for a model object of a provider ferret does not name. */
  provider: Provider | "other";
  /** The model id sent to the API. */
  modelId: string;
  model: LanguageModel;
  /** Native tool calling; when false the engine uses the text protocol. */
  supportsTools: boolean;
  /** The API accepts a JSON Schema for structured replies; otherwise the schema goes in the prompt. */
  structuredOutputs: boolean;
  pricing: ModelPricing;
}

export interface ResolveModelOptions {
  spec: string;
  baseUrl?: string;
  apiKey?: string;
  /** Read once, here; defaults to `process.env`. */
  env?: Record<string, string | undefined>;
  fetch?: typeof fetch;
  /** Path of a `ferret.config.json`; its `models` section supplies endpoints, keys and prices. */
  configFile?: string;
  /** An already loaded config (takes precedence over `configFile`). */
  config?: ModelsConfig;
  pricing?: PriceOverride;
  supportsTools?: boolean;
}

function isProvider(value: string): value is Provider {
  return (PROVIDERS as readonly string[]).includes(value);
}

const MODEL_KIND: ProviderKind = {
  field: "model",
  what: "model",
  known: PROVIDERS,
  usage: `${PROVIDERS.map((p) => `${p}:<model>`).join(", ")} or "offline" for the built-in engine`,
};

function parseSpec(spec: string): { provider: Provider; name: string } {
  const { provider, name } = parseProviderSpec(spec, MODEL_KIND);
  return { provider: provider as Provider, name };
}

function keyFrom(options: ResolveModelOptions, entry: ModelConfigEntry | undefined, fallbackEnv: string) {
  const env = options.env ?? process.env;
  return (
    options.apiKey ??
    entry?.apiKey ??
    (entry?.apiKeyEnv ? env[entry.apiKeyEnv] : undefined) ??
    env[fallbackEnv] ??
    undefined
  );
}

function requireKey(spec: string, key: string | undefined, envName: string): string {
  if (key) return key;
  throw new InvalidInputError(
    `${spec} needs an API key: set ${envName}, pass an API key, or name apiKeyEnv in the config.`,
    {
      field: "apiKey",
    },
  );
}

/** Resolves `provider:model` to a ready AI SDK model. Environment and config are read once, here. */
export function resolveModel(options: ResolveModelOptions): ResolvedModel {
  const { provider, name } = parseSpec(options.spec.trim());
  const id = `${provider}:${name}`;
  const env = options.env ?? process.env;
  const config = options.config ?? (options.configFile ? loadModelsConfig({ file: options.configFile }) : {});
  const entry = config.models?.[id] ?? (provider === "openai-compatible" ? config.models?.[name] : undefined);
  const modelId = entry?.model ?? name;
  const fetchFn = options.fetch;
  let model: LanguageModel;
  switch (provider) {
    case "openai": {
      const apiKey = requireKey(id, keyFrom(options, entry, "OPENAI_API_KEY"), "OPENAI_API_KEY");
      const baseURL = options.baseUrl ?? entry?.baseUrl ?? env.OPENAI_BASE_URL;
      model = createOpenAI({ apiKey, baseURL, fetch: fetchFn })(modelId);
      break;
    }
    case "anthropic": {
      const apiKey = requireKey(id, keyFrom(options, entry, "ANTHROPIC_API_KEY"), "ANTHROPIC_API_KEY");
      const baseURL = options.baseUrl ?? entry?.baseUrl ?? env.ANTHROPIC_BASE_URL;
      model = createAnthropic({ apiKey, baseURL, fetch: fetchFn })(modelId);
      break;
    }
    case "ollama": {
      const baseURL = options.baseUrl ?? entry?.baseUrl ?? env.OLLAMA_BASE_URL;
      model = createOllama({ baseURL, fetch: fetchFn })(modelId);
      break;
    }
    case "openai-compatible": {
      const baseURL = options.baseUrl ?? entry?.baseUrl ?? env.FERRET_BASE_URL;
      if (!baseURL) {
        throw new InvalidInputError(
          `${id} needs a base URL: pass --base-url, set FERRET_BASE_URL, or add models["${name}"].baseUrl to ferret.config.json.`,
          { field: "baseUrl" },
        );
      }
      model = createOpenAICompatible({
        name: "openai-compatible",
        baseURL,
        apiKey: keyFrom(options, entry, "FERRET_API_KEY"),
        fetch: fetchFn,
        includeUsage: true,
        supportsStructuredOutputs: entry?.structuredOutputs ?? false,
      })(modelId);
      break;
    }
  }
  return {
    id,
    provider,
    modelId,
    model,
    supportsTools: options.supportsTools ?? entry?.supportsTools ?? true,
    structuredOutputs: provider === "openai-compatible" ? (entry?.structuredOutputs ?? false) : true,
    pricing: lookupPricing({ id, override: options.pricing ?? entry?.pricing }),
  };
}

/**
 * A model object the caller built with any AI SDK provider. Its id (`openai:gpt-4o-mini` for a model whose
 * provider is `openai.chat`) names it in traces and finds its price; tool calling is assumed unless told.
 */
export function fromLanguageModel(
  model: LanguageModelObject,
  options: { supportsTools?: boolean; pricing?: PriceOverride } = {},
): ResolvedModel {
  const prefix = model.provider.split(".")[0] ?? model.provider;
  const provider: Provider | "other" = isProvider(prefix) ? prefix : "other";
  const id = `${prefix}:${model.modelId}`;
  return {
    id,
    provider,
    modelId: model.modelId,
    model,
    supportsTools: options.supportsTools ?? true,
    structuredOutputs: provider !== "openai-compatible" && provider !== "other",
    pricing: lookupPricing({ id, override: options.pricing }),
  };
}

/** True for an AI SDK language model object (specification v2 or v3). */
export function isLanguageModelObject(value: unknown): value is LanguageModelObject {
  if (typeof value !== "object" || value === null) return false;
  const v = (value as { specificationVersion?: unknown }).specificationVersion;
  return (v === "v2" || v === "v3") && typeof (value as { doGenerate?: unknown }).doGenerate === "function";
}
