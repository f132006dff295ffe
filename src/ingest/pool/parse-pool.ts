import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Piscina } from "piscina";
import { DEFAULT_INGEST_LIMITS, type IngestLimits } from "../limits.js";
import { type ParsedFile, type ParseTask, parseFile } from "./parse-file.js";
import type { PoolTask } from "./parse-worker.js";
import { startedId } from "./started.js";

/** Parses files (load, chunk, entities), one per call; never rejects: failures come back as `failed`. */
export interface ParsePool {
  parse(task: ParseTask): Promise<ParsedFile>;
  /** Parallel parses this pool runs (1 in process). */
  readonly concurrency: number;
  /** Stops the workers; parses still running come back `failed`. */
  close(): Promise<void>;
}

/** Running from TypeScript sources (vitest, tsx) rather than compiled `dist/`. */
const FROM_SOURCE = import.meta.url.endsWith(".ts");

/**
 * Default parse workers: one per core, at most four (the main thread embeds and writes meanwhile). From
 * TypeScript sources, none: each worker would compile the parser again through tsx (a dev dependency), a
 * second or two per ingest, so tests and scripts parse in process unless they ask for workers.
 */
export function defaultParseWorkers(): number {
  return FROM_SOURCE ? 0 : Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * The worker entry: `parse-worker` next to this module, compiled JavaScript in `dist/`, or the TypeScript
 * source when running from `src/` (under vitest or tsx), which the worker then loads through tsx's import
 * hook. Tests may name another entry module (a worker that stalls, say).
 */
function workerEntry(entry: URL | undefined): { filename: string; execArgv: string[] } {
  const here = import.meta.url;
  const filename = entry?.href ?? new URL(FROM_SOURCE ? "./parse-worker.ts" : "./parse-worker.js", here).href;
  if (!filename.endsWith(".ts")) return { filename, execArgv: [] };
  const tsx = pathToFileURL(createRequire(here).resolve("tsx")).href;
  return { filename, execArgv: ["--import", tsx] };
}

function failure(error: unknown, limits: IngestLimits, timedOut: boolean): ParsedFile {
  if (timedOut)
    return {
      kind: "failed",
      reason: `parsing took longer than the ${limits.parseTimeoutMs} ms parse timeout (limits.parseTimeoutMs); its worker was stopped`,
    };
  const code = (error as { code?: unknown }).code;
  if (code === "ERR_WORKER_OUT_OF_MEMORY")
    return {
      kind: "failed",
      reason: `parsing needed more than the ${limits.parseHeapMb} MB parse worker heap (limits.parseHeapMb); its worker was stopped`,
    };
  return {
    kind: "failed",
    reason: `the parse worker failed: ${error instanceof Error ? error.message : String(error)}`,
  };
}

/**
 * A pool of `workers` worker threads (piscina) that parse files off the main thread, each file under the
 * parse timeout and heap limit: a file over either fails alone, and its worker is replaced. With `workers`
 * 0, files are parsed in process, one at a time, with no timeout.
 */
export function createParsePool(
  options: { workers?: number; limits?: Partial<IngestLimits> /** Worker module (tests). */; entry?: URL } = {},
): ParsePool {
  const limits = { ...DEFAULT_INGEST_LIMITS, ...options.limits };
  const workers = Math.max(0, Math.floor(options.workers ?? defaultParseWorkers()));
  if (workers === 0) {
    return {
      concurrency: 1,
      parse: (task) => parseFile(task).catch((error: unknown) => failure(error, limits, false)),
      close: async () => undefined,
    };
  }
  const entry = workerEntry(options.entry);
  const pool = new Piscina<PoolTask, ParsedFile>({
    filename: entry.filename,
    execArgv: entry.execArgv,
    minThreads: 0,
    maxThreads: workers,
    idleTimeout: 5_000,
    atomics: "disabled",
    resourceLimits: { maxOldGenerationSizeMb: limits.parseHeapMb },
  });
  // The parse timeout runs from when a worker starts the file, not from when it was queued or the worker
  // was starting up: each worker announces the task it starts.
  const onStart = new Map<number, () => void>();
  // A worker that fails between tasks (a stray callback of a finished parse) is replaced by the pool; with
  // no task to fail there is nothing to report, and an unheard 'error' event would end the process.
  pool.on("error", () => undefined);
  pool.on("message", (message: unknown) => {
    const id = startedId(message);
    if (id !== undefined) onStart.get(id)?.();
  });
  let nextId = 0;
  return {
    concurrency: workers,
    async parse(withLoaders) {
      // A loader registered at run time exists only in this process: its files are parsed here.
      const { loaders, ...task } = withLoaders;
      if (loaders && loaders.forPath(task.relPath)?.builtin !== true)
        return parseFile(withLoaders).catch((error: unknown) => failure(error, limits, false));
      const id = nextId++;
      const controller = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      let timedOut = false;
      onStart.set(id, () => {
        timer = setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, limits.parseTimeoutMs);
      });
      try {
        return await pool.run({ id, task }, { signal: controller.signal });
      } catch (error) {
        return failure(error, limits, timedOut);
      } finally {
        onStart.delete(id);
        clearTimeout(timer);
      }
    },
    close: () => pool.destroy(),
  };
}
