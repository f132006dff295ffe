import {
  envValue,
  localModelCacheDir,
  type ProviderKind,
  parseProviderSpec,
  providerSpecError,
} from "../models/provider-spec.js";
import type { EmbedderV1 } from "../spec/embedder.js";
import { createApiEmbedder } from "./api-embedder.js";
import { type ApiProvider, createEmbeddingModel } from "./api-models.js";
import { createHashingEmbedder } from "./hashing.js";
import { type LocalEmbedderOptions, loadLocalEmbedder } from "./local.js";
import type { RetryPolicy } from "./retry.js";

export interface ResolveEmbedderOptions {
  /** `none` (or absent), `local:<hf-model>`, `openai:<model>`, `ollama:<model>`, `openai-compatible:<model>`, `hash:<dims>`. */
  spec?: string;
  /** Model cache for `local:`. Default `$XDG_CACHE_HOME/ferret/models` (or `~/.cache/ferret/models`). */
  cacheDir?: string;
  /** API base URL. Default: env FERRET_EMBED_BASE_URL, then OPENAI_BASE_URL (openai, openai-compatible). */
  baseUrl?: string;
  /** API key. Default: env FERRET_EMBED_API_KEY, then OPENAI_API_KEY. */
  apiKey?: string;
  /** Read once, here; default `process.env`. */
  env?: Record<string, string | undefined>;
  onWarning?: (message: string) => void;
  fetch?: typeof fetch;
  /** Texts per API request (default 96) or per local forward pass (default 32). */
  batchSize?: number;
  /** Retries for API embedders (see `RetryPolicy`). */
  retry?: RetryPolicy;
  /** Time bound for downloading and loading a local model. Default 20 s. */
  localTimeoutMs?: number;
  localDtype?: LocalEmbedderOptions["dtype"];
  /** Hub mirror for `local:` downloads. Default: env HF_ENDPOINT, then the Hugging Face hub. */
  localRemoteHost?: string;
}

const API_PROVIDERS: readonly ApiProvider[] = ["openai", "ollama", "openai-compatible"];

const EMBEDDER_KIND: ProviderKind = {
  field: "embedder",
  what: "embedder",
  known: ["local", "hash", ...API_PROVIDERS],
  usage: "none, local:<model>, openai:<model>, ollama:<model>, openai-compatible:<model> or hash:<dims>",
};

/**
 * Turns an embedder spec into an embedder, or `undefined` for keyword-only search. A spec that is malformed or
 * lacks what it needs (an API key, a base URL) throws `InvalidInputError`; a local model that cannot be downloaded
 * or loaded warns once through `onWarning` and resolves to `undefined`.
 */
export async function resolveEmbedder(options: ResolveEmbedderOptions): Promise<EmbedderV1 | undefined> {
  const spec = options.spec?.trim();
  if (spec === undefined || spec === "" || spec === "none") return undefined;
  const env = options.env ?? process.env;
  const { provider, name } = parseProviderSpec(spec, EMBEDDER_KIND);

  if (provider === "hash") {
    const dimensions = Number(name);
    if (!/^\d+$/.test(name))
      throw providerSpecError(EMBEDDER_KIND, spec, "hash:<dims> takes a whole number, e.g. hash:256");
    return createHashingEmbedder({ dimensions });
  }

  if (provider === "local") {
    return loadLocalEmbedder({
      model: name,
      cacheDir: options.cacheDir ?? localModelCacheDir(env),
      timeoutMs: options.localTimeoutMs,
      batchSize: options.batchSize,
      dtype: options.localDtype,
      remoteHost: options.localRemoteHost ?? envValue(env.HF_ENDPOINT),
      onWarning: options.onWarning,
    });
  }

  if ((API_PROVIDERS as readonly string[]).includes(provider)) {
    const apiProvider = provider as ApiProvider;
    const baseUrl =
      options.baseUrl ??
      envValue(env.FERRET_EMBED_BASE_URL) ??
      (apiProvider === "ollama" ? undefined : envValue(env.OPENAI_BASE_URL));
    const apiKey = options.apiKey ?? envValue(env.FERRET_EMBED_API_KEY) ?? envValue(env.OPENAI_API_KEY);
    const model = createEmbeddingModel({ provider: apiProvider, model: name, apiKey, baseUrl, fetch: options.fetch });
    return createApiEmbedder({ id: `${provider}:${name}`, model, batchSize: options.batchSize, ...options.retry });
  }

  throw providerSpecError(EMBEDDER_KIND, spec, `unknown provider "${provider}"`);
}
