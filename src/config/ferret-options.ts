import { resolveEngine } from "../engine.js";
import type { FerretOptions } from "../ferret.js";
import { DEFAULT_DB, type ResolvedConfig, settingValue } from "./resolve-config.js";

/**
 * The options `createFerret` takes, from a resolved configuration. An LLM model is resolved here, with the
 * config file's `models` entries (endpoints, key variables, pricing), so `--config` applies to them too.
 */
export function ferretOptionsFrom(
  config: ResolvedConfig,
  options: { apiKey?: string; env: Record<string, string | undefined>; db?: string },
): FerretOptions {
  const model = settingValue<string>(config, "model") ?? "offline";
  const roles = {
    planner: settingValue<string>(config, "roles.planner"),
    grader: settingValue<string>(config, "roles.grader"),
    answerer: settingValue<string>(config, "roles.answerer"),
  };
  const hasRoles = Object.values(roles).some((r) => r !== undefined);
  const baseUrl = settingValue<string>(config, "baseUrl");
  const minConfidence = settingValue<number>(config, "minConfidence");
  const embedder = settingValue<string>(config, "embedder");
  return {
    db: options.db ?? settingValue<string>(config, "db") ?? DEFAULT_DB,
    dbRead: settingValue<string>(config, "dbRead"),
    embedder: embedder === "none" ? undefined : embedder,
    model:
      model === "offline" && !hasRoles
        ? "offline"
        : resolveEngine({
            model,
            ...(hasRoles ? { models: roles } : {}),
            baseUrl,
            apiKey: options.apiKey,
            env: options.env,
            configFile: config.file,
          }),
    baseUrl,
    apiKey: options.apiKey,
    reranker: settingValue<string>(config, "reranker"),
    retrieval: settingValue<"flat" | "hierarchical" | "auto">(config, "retrieval"),
    cache: settingValue<boolean>(config, "cache") !== false,
    ...(minConfidence !== undefined ? { minConfidence } : {}),
    env: options.env,
  };
}
