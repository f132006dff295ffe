import { homedir } from "node:os";
import { join } from "node:path";
import { InvalidInputError } from "../spec/errors.js";

/**
 * The one reader of `provider:model` strings, shared by models, embedders and re-rankers: each kind names
 * the providers it knows (or none, when any AI SDK provider package may serve it) and gets the same parsing,
 * the same errors naming the field, and the same local model cache.
 */
export interface ProviderKind {
  /** The option the spec came from (`model`, `embedder`, `reranker`): named in errors. */
  field: string;
  /** What the spec is called in messages (`model`, `embedder`, `re-ranker`). */
  what: string;
  /** The providers this kind accepts; undefined accepts any name (an `@ai-sdk/<provider>` package). */
  known?: readonly string[];
  /** The accepted forms, for the end of an error (`use none, local:<model>, ...`). */
  usage: string;
}

export interface ProviderSpec {
  provider: string;
  /** The model name after the first colon, trimmed. */
  name: string;
  /** `provider:name`. */
  id: string;
}

/** Splits `provider:model` at its first colon (model names may hold colons: `ollama:qwen3:8b`). */
export function parseProviderSpec(spec: string, kind: ProviderKind): ProviderSpec {
  const text = spec.trim();
  const colon = text.indexOf(":");
  const provider = colon < 0 ? text : text.slice(0, colon).trim();
  const name = colon < 0 ? "" : text.slice(colon + 1).trim();
  if (!provider || (kind.known && !kind.known.includes(provider))) {
    throw providerSpecError(kind, text, `unknown provider "${provider}"`, { known: kind.known && [...kind.known] });
  }
  if (!name) throw providerSpecError(kind, text, `names no model after "${provider}:"`);
  return { provider, name, id: `${provider}:${name}` };
}

/** The error of a spec that cannot be used, naming the field and the accepted forms. */
export function providerSpecError(
  kind: ProviderKind,
  spec: string,
  why: string,
  details: Record<string, unknown> = {},
): InvalidInputError {
  return new InvalidInputError(`${kind.what} "${spec}": ${why}; use ${kind.usage}`, {
    field: kind.field,
    ...Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined)),
  });
}

/** An environment value, trimmed; undefined when unset or blank. */
export function envValue(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}

/** Where `local:` models are kept: `$XDG_CACHE_HOME/ferret/models`, else `~/.cache/ferret/models`. */
export function localModelCacheDir(env: Record<string, string | undefined>): string {
  return join(envValue(env.XDG_CACHE_HOME) ?? join(homedir(), ".cache"), "ferret", "models");
}
