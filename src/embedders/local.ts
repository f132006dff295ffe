import { existsSync } from "node:fs";
import { join } from "node:path";
import type { EmbedderV1 } from "../spec/embedder.js";
import { MissingDependencyError } from "../spec/errors.js";
import { importTransformers } from "../util/optional-import.js";

export interface LocalEmbedderOptions {
  /** Hugging Face model id, e.g. `Xenova/all-MiniLM-L6-v2`. */
  model: string;
  /** Where model files are cached (`<cacheDir>/<model>/...`); a model already there loads without a network. */
  cacheDir: string;
  /** Longest wait for download and load before giving up. Default 20 s. */
  timeoutMs?: number;
  /** Texts per forward pass. Default 32. */
  batchSize?: number;
  /** ONNX weights to use: `fp32` (default, `onnx/model.onnx`), `q8`, `fp16`, ... */
  dtype?: "fp32" | "fp16" | "q8" | "int8" | "uint8" | "q4" | "bnb4" | "q4f16";
  /** Where models are downloaded from (a hub mirror). Default `https://huggingface.co/`. */
  remoteHost?: string;
  /** Called once, with one line, when the model cannot be had. */
  onWarning?: (message: string) => void;
}

/** What we use of transformers.js' feature-extraction pipeline. */
interface Extractor {
  (
    texts: string[],
    options: { pooling: "mean"; normalize: boolean },
  ): Promise<{ dims: number[]; data: ArrayLike<number> }>;
  dispose(): Promise<void>;
}

/**
 * `local:<model>`: sentence embeddings computed in-process by transformers.js (ONNX runtime), mean-pooled and
 * normalised. The model is downloaded from the Hugging Face hub on first use into `cacheDir` and read from there
 * afterwards. When it cannot be downloaded or loaded within `timeoutMs`, this warns once and resolves to
 * `undefined` (keyword-only search) instead of throwing.
 */
export async function loadLocalEmbedder(options: LocalEmbedderOptions): Promise<EmbedderV1 | undefined> {
  const { model, cacheDir } = options;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const batchSize = options.batchSize ?? 32;
  const cached = existsSync(join(cacheDir, model, "config.json"));
  const fail = (what: string, reason: string) => {
    options.onWarning?.(`local embedder ${model}: ${what} (${oneLine(reason)}); falling back to keyword-only search`);
    return undefined;
  };

  let loading: Promise<Extractor> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LoadTimeout(timeoutMs)), timeoutMs);
  });
  timeout.catch(() => {}); // raced below; never an unhandled rejection
  let what = "cannot load transformers.js";
  try {
    const transformers = await importTransformers(`the local embedder local:${model}`);
    what = cached ? "cannot load the model" : "cannot download the model";
    const { env } = transformers;
    env.cacheDir = cacheDir;
    env.localModelPath = cacheDir;
    env.allowLocalModels = true;
    env.allowRemoteModels = true;
    env.remoteHost = options.remoteHost ?? HUGGING_FACE_HUB;
    const load = (localOnly: boolean) => {
      loading = transformers.pipeline("feature-extraction", model, {
        cache_dir: cacheDir,
        local_files_only: localOnly,
        dtype: options.dtype ?? "fp32",
      }) as unknown as Promise<Extractor>;
      return Promise.race([loading, timeout]);
    };
    // A model in the cache loads with no network at all (optional files it lacks are skipped, not fetched);
    // only when that fails (say, an interrupted download) is the hub asked for the missing files.
    const extractor = cached
      ? await load(true).catch((error: unknown) => {
          if (error instanceof LoadTimeout) throw error;
          return load(false);
        })
      : await load(false);
    const embedder = createExtractorEmbedder({ id: `local:${model}`, extractor, batchSize });
    await Promise.race([embedder.embed(["dimension probe"]), timeout]);
    return embedder;
  } catch (error) {
    // A missing runtime is a choice to fix, not a download to retry: it is not turned into a fallback.
    if (error instanceof MissingDependencyError) throw error;
    // A load still running after the timeout is released when (if) it finishes.
    loading?.then((late) => late.dispose()).catch(() => {});
    const reason = error instanceof LoadTimeout ? error.message : describe(error);
    return fail(what, reason);
  } finally {
    clearTimeout(timer);
  }
}

function createExtractorEmbedder(options: { id: string; extractor: Extractor; batchSize: number }): EmbedderV1 {
  let dimensions: number | undefined;
  return {
    specificationVersion: "v1",
    id: options.id,
    dimensions: () => dimensions,
    async embed(texts, embedOptions) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += options.batchSize) {
        embedOptions?.signal?.throwIfAborted();
        const batch = texts.slice(i, i + options.batchSize);
        const tensor = await options.extractor(batch, { pooling: "mean", normalize: true });
        const width = tensor.dims[tensor.dims.length - 1] ?? 0;
        dimensions ??= width;
        const data = tensor.data instanceof Float32Array ? tensor.data : Float32Array.from(tensor.data);
        for (let row = 0; row < batch.length; row++) out.push(data.slice(row * width, (row + 1) * width));
      }
      return out;
    },
  };
}

const HUGGING_FACE_HUB = "https://huggingface.co/";

class LoadTimeout extends Error {
  constructor(ms: number) {
    super(`timed out after ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`}`);
    this.name = "LoadTimeout";
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const code = typeof cause?.code === "string" ? cause.code : undefined;
  return code ? `${error.message}: ${code}` : error.message;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
