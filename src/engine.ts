import { existsSync } from "node:fs";
import { DEFAULT_CONFIG_FILE } from "./models/config.js";
import { createLlmEngine } from "./models/llm-engine.js";
import { createOfflineEngine } from "./models/offline/index.js";
import { fromLanguageModel, type LanguageModelObject, resolveModel } from "./models/resolve.js";
import type { AgentEngineV1 } from "./spec/engine.js";

/** A model by name (`provider:model`, `offline`) or an AI SDK language model object. */
export type ModelChoice = string | LanguageModelObject;

export interface ResolveEngineOptions {
  /** `offline`, `provider:model`, or an AI SDK language model. */
  model: string | LanguageModelObject;
  models?: { planner?: ModelChoice; grader?: ModelChoice; answerer?: ModelChoice };
  baseUrl?: string;
  apiKey?: string;
  env?: Record<string, string | undefined>;
  configFile?: string;
}

/** The engine for a model name: the offline engine, or an LLM engine with a model per role. */
export function resolveEngine(options: ResolveEngineOptions): AgentEngineV1 {
  if (options.model === "offline" && !options.models) return createOfflineEngine();
  const configFile = options.configFile ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
  const resolve = (spec: ModelChoice | undefined) =>
    typeof spec === "object"
      ? fromLanguageModel(spec)
      : spec && spec !== "offline"
        ? resolveModel({ spec, baseUrl: options.baseUrl, apiKey: options.apiKey, env: options.env, configFile })
        : undefined;
  const planner = resolve(options.models?.planner ?? options.model);
  if (!planner) return createOfflineEngine();
  return createLlmEngine({
    planner,
    grader: resolve(options.models?.grader),
    answerer: resolve(options.models?.answerer),
  });
}
