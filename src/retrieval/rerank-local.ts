import { existsSync } from "node:fs";
import { join } from "node:path";
import { MissingDependencyError } from "../spec/errors.js";
import type { RerankerV1 } from "../spec/reranker.js";
import { importTransformers } from "../util/optional-import.js";
import { orderByScores } from "./rerank-lexical.js";

export interface LocalRerankerOptions {
  /** Hugging Face cross-encoder id, e.g. `Xenova/ms-marco-MiniLM-L-6-v2`. */
  model: string;
  /** Where model files are cached (`<cacheDir>/<model>/...`); a model already there loads without a network. */
  cacheDir: string;
  /** Longest wait for download and load before giving up. Default 20 s. */
  timeoutMs?: number;
  /** (query, passage) pairs per forward pass. Default 16. */
  batchSize?: number;
  dtype?: "fp32" | "fp16" | "q8" | "int8" | "uint8" | "q4" | "bnb4" | "q4f16";
  /** Hub mirror. Default `https://huggingface.co/`. */
  remoteHost?: string;
  /** Called once, with one line, when the model cannot be had. */
  onWarning?: (message: string) => void;
}

/** Scores (query, text) pairs, higher is more relevant, each in [0, 1]. */
export type PairScorer = (query: string, texts: string[]) => Promise<number[]>;

/** A re-ranker over any pair scorer (a cross-encoder), scoring in batches. */
export function createCrossEncoderReranker(options: { id: string; score: PairScorer; batchSize?: number }): RerankerV1 {
  const batchSize = Math.max(1, options.batchSize ?? 16);
  return {
    specificationVersion: "v1",
    id: options.id,
    async rerank(query, passages, rerankOptions) {
      const scores: number[] = [];
      for (let i = 0; i < passages.length; i += batchSize) {
        rerankOptions?.signal?.throwIfAborted();
        const batch = passages
          .slice(i, i + batchSize)
          .map((p) => [p.title, p.section, p.text].filter(Boolean).join("\n"));
        scores.push(...(await options.score(query, batch)));
      }
      return orderByScores(passages, scores);
    },
  };
}

/** What we use of transformers.js: a tokenizer called on text pairs and a sequence classifier. */
type Tokenizer = (text: string[], options: { text_pair: string[]; padding: boolean; truncation: boolean }) => unknown;
interface Classifier {
  (inputs: unknown): Promise<{ logits: { dims: number[]; data: ArrayLike<number> } }>;
  dispose(): Promise<unknown>;
}

/** Relevance from logits: sigmoid of a single logit, or the last class's softmax share. */
export function logitsToScores(dims: readonly number[], data: ArrayLike<number>): number[] {
  const rows = dims[0] ?? 0;
  const width = dims[dims.length - 1] ?? 1;
  const out: number[] = [];
  for (let r = 0; r < rows; r++) {
    if (width === 1) out.push(1 / (1 + Math.exp(-(data[r] ?? 0))));
    else {
      const row = Array.from({ length: width }, (_, c) => data[r * width + c] ?? 0);
      const max = Math.max(...row);
      const exps = row.map((x) => Math.exp(x - max));
      out.push((exps[width - 1] ?? 0) / exps.reduce((a, b) => a + b, 0));
    }
  }
  return out;
}

/**
 * `local:<model>`: a cross-encoder run in-process by transformers.js. Like the local embedder, the model comes
 * from `cacheDir` (or the hub on first use); when it cannot be had within `timeoutMs` this warns once and
 * resolves to `undefined` (no re-ranking) instead of throwing.
 */
export async function loadLocalReranker(options: LocalRerankerOptions): Promise<RerankerV1 | undefined> {
  const { model, cacheDir } = options;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const cached = existsSync(join(cacheDir, model, "config.json"));
  let loading: Promise<[Tokenizer, Classifier]> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LoadTimeout(timeoutMs)), timeoutMs);
  });
  timeout.catch(() => {});
  let what = "cannot load transformers.js";
  try {
    const transformers = await importTransformers(`the local reranker local:${model}`);
    what = cached ? "cannot load the model" : "cannot download the model";
    const { env, AutoTokenizer, AutoModelForSequenceClassification } = transformers;
    env.cacheDir = cacheDir;
    env.localModelPath = cacheDir;
    env.allowLocalModels = true;
    env.allowRemoteModels = true;
    env.remoteHost = options.remoteHost ?? "https://huggingface.co/";
    const load = (localOnly: boolean) => {
      const settings = { cache_dir: cacheDir, local_files_only: localOnly };
      loading = Promise.all([
        AutoTokenizer.from_pretrained(model, settings) as unknown as Promise<Tokenizer>,
        AutoModelForSequenceClassification.from_pretrained(model, {
          ...settings,
          dtype: options.dtype ?? "fp32",
        }) as unknown as Promise<Classifier>,
      ]);
      return Promise.race([loading, timeout]);
    };
    const [tokenizer, classifier] = cached
      ? await load(true).catch((error: unknown) => {
          if (error instanceof LoadTimeout) throw error;
          return load(false);
        })
      : await load(false);
    const score: PairScorer = async (query, texts) => {
      const inputs = tokenizer(
        texts.map(() => query),
        { text_pair: texts, padding: true, truncation: true },
      );
      const { logits } = await classifier(inputs);
      return logitsToScores(logits.dims, logits.data);
    };
    const reranker = createCrossEncoderReranker({ id: `local:${model}`, score, batchSize: options.batchSize });
    await Promise.race([score("probe", ["probe"]), timeout]);
    return reranker;
  } catch (error) {
    if (error instanceof MissingDependencyError) throw error;
    loading?.then(([, late]) => late.dispose()).catch(() => {});
    const reason = error instanceof Error ? error.message : String(error);
    options.onWarning?.(`local re-ranker ${model}: ${what} (${oneLine(reason)}); answering without re-ranking`);
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

class LoadTimeout extends Error {
  constructor(ms: number) {
    super(`timed out after ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`}`);
    this.name = "LoadTimeout";
  }
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
