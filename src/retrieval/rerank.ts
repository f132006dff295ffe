import type { RerankingModel } from "ai";
import {
  envValue,
  localModelCacheDir,
  type ProviderKind,
  parseProviderSpec,
  providerSpecError,
} from "../models/provider-spec.js";
import { InvalidInputError } from "../spec/errors.js";
import { type Passage, passageKey } from "../spec/passage.js";
import type { RerankerV1 } from "../spec/reranker.js";
import { createApiReranker } from "./rerank-api.js";
import { createLexicalReranker } from "./rerank-lexical.js";
import { type LocalRerankerOptions, loadLocalReranker } from "./rerank-local.js";

const RERANKER_KIND: ProviderKind = {
  field: "reranker",
  what: "re-ranker",
  usage: "none, lexical, local:<model> or <provider>:<model> (e.g. cohere:rerank-v3.5)",
};

export const DEFAULT_LOCAL_RERANKER = "local:Xenova/ms-marco-MiniLM-L-6-v2";

export interface ResolveRerankerOptions {
  /**
   * `none` (or absent), `lexical`, `local:<hf-model>` (a cross-encoder through transformers.js), or
   * `<provider>:<model>` for an AI SDK provider package with reranking models (`cohere:rerank-v3.5` needs
   * `@ai-sdk/cohere`); or an AI SDK reranking model, or a re-ranker.
   */
  spec?: string | RerankerV1 | Exclude<RerankingModel, string>;
  /** Model cache for `local:`. Default `$XDG_CACHE_HOME/ferret/models` (or `~/.cache/ferret/models`). */
  cacheDir?: string;
  /** Read once, here; default `process.env`. */
  env?: Record<string, string | undefined>;
  onWarning?: (message: string) => void;
  /** Time bound for downloading and loading a local model. Default 20 s. */
  localTimeoutMs?: number;
  localDtype?: LocalRerankerOptions["dtype"];
  /** Hub mirror for `local:` downloads. Default: env HF_ENDPOINT, then the Hugging Face hub. */
  localRemoteHost?: string;
  /** Loads a provider package by name; default dynamic `import`. For tests. */
  importPackage?: (name: string) => Promise<unknown>;
}

/**
 * Turns a re-ranker spec into a re-ranker, or `undefined` for none. A malformed spec, or a provider whose
 * package is not installed, throws `InvalidInputError`; a local model that cannot be had warns once through
 * `onWarning` and resolves to `undefined` (answers then use retrieval order).
 */
export async function resolveReranker(options: ResolveRerankerOptions): Promise<RerankerV1 | undefined> {
  const { spec } = options;
  if (typeof spec === "object") {
    return "rerank" in spec ? spec : createApiReranker({ model: spec });
  }
  const text = spec?.trim();
  if (text === undefined || text === "" || text === "none") return undefined;
  if (text === "lexical") return createLexicalReranker();
  const { provider, name } = parseProviderSpec(text, RERANKER_KIND);
  const env = options.env ?? process.env;
  if (provider === "local") {
    return loadLocalReranker({
      model: name,
      cacheDir: options.cacheDir ?? localModelCacheDir(env),
      timeoutMs: options.localTimeoutMs,
      dtype: options.localDtype,
      remoteHost: options.localRemoteHost ?? envValue(env.HF_ENDPOINT),
      onWarning: options.onWarning,
    });
  }
  const pkg = `@ai-sdk/${provider}`;
  const load = options.importPackage ?? ((p: string) => import(p) as Promise<unknown>);
  let mod: Record<string, unknown>;
  try {
    mod = (await load(pkg)) as Record<string, unknown>;
  } catch (cause) {
    throw new InvalidInputError(
      `re-ranker "${text}": the package ${pkg} is not installed; install it, or pass an AI SDK reranking model`,
      { field: "reranker" },
      cause,
    );
  }
  const instance = (mod[camel(provider)] ?? mod.default) as
    | { rerankingModel?: (id: string) => unknown; reranking?: (id: string) => unknown }
    | undefined;
  const make = instance?.rerankingModel ?? instance?.reranking;
  if (!instance || typeof make !== "function") {
    throw providerSpecError(RERANKER_KIND, text, `${pkg} has no reranking models`);
  }
  return createApiReranker({ model: make.call(instance, name) as Exclude<RerankingModel, string> });
}

export interface RerankEvidenceOptions<T extends Passage> {
  reranker: RerankerV1;
  /** The user's original (standalone) question, not a sub-query. */
  question: string;
  evidence: readonly T[];
  /** Keep only the best this many. Default: all. */
  limit?: number;
  signal?: AbortSignal;
}

/**
 * Orders the gathered evidence by relevance to the original question, best first. Items are returned as
 * given (their retrieval `score` kept, so confidence thresholds mean what they meant); only the order, and
 * with `limit` the count, change. A re-ranker that fails leaves the order as it was.
 */
export async function rerankEvidence<T extends Passage>(options: RerankEvidenceOptions<T>): Promise<T[]> {
  const { evidence } = options;
  if (evidence.length <= 1) return [...evidence];
  const limit = options.limit ?? evidence.length;
  let ranked: Passage[];
  try {
    ranked = await options.reranker.rerank(options.question, evidence, { signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return evidence.slice(0, limit);
  }
  const byKey = new Map<string, T[]>();
  for (const item of evidence) byKey.set(passageKey(item), [...(byKey.get(passageKey(item)) ?? []), item]);
  const out: T[] = [];
  for (const p of ranked) {
    out.push(...(byKey.get(passageKey(p)) ?? []));
    byKey.delete(passageKey(p));
  }
  // Anything the re-ranker dropped keeps its order, after the ranked ones.
  out.push(...evidence.filter((item) => byKey.has(passageKey(item))));
  return out.slice(0, limit);
}

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}
