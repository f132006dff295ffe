/**
 * Keeps a folder or file ingested: chokidar reports changes, a quiet period gathers a burst (a checkout, an
 * editor's write-temp-then-rename save) into one incremental, pruning ingest run. Each document replace is one
 * store transaction and the ingest converges after any interruption, so a killed process leaves the store
 * consistent and the next run catches up.
 */
import { relative, resolve, sep } from "node:path";
import { type FSWatcher, watch } from "chokidar";
import type { IngestSummary } from "../ingest.js";

export interface WatchPathOptions {
  /** The folder or file to watch. */
  path: string;
  /** One incremental ingest of the path that prunes what is gone (`ferret.ingest(path, { prune: true })`). */
  ingest: () => Promise<IngestSummary>;
  /** Quiet time after the last change before ingesting; default 300 ms. */
  debounceMs?: number;
  /** Each run's summary, with the paths whose change started it. */
  onIngest?: (summary: IngestSummary, changed: string[]) => void;
  /** A run that failed (the watcher keeps going; the next change retries). */
  onError?: (error: unknown) => void;
  /** Poll instead of native events (network file systems); default false. */
  usePolling?: boolean;
}

export interface PathWatcher {
  /** Resolves when the initial scan is done and changes are being reported. */
  readonly ready: Promise<void>;
  /** Resolves when no run is pending or going on. */
  idle(): Promise<void>;
  /** Stops watching, after the run going on (if any) ends. */
  close(): Promise<void>;
}

/**
 * Under the watched root: hidden files and folders (the store's own `.ferret/`, `.git/`, editors' swap and
 * temporary files) and backup files (`name~`), which the ingest leaves out too.
 */
function ignoredUnder(root: string): (path: string) => boolean {
  return (path) => {
    const rel = relative(root, resolve(path));
    if (rel === "" || rel.startsWith("..")) return false;
    return rel.endsWith("~") || rel.split(sep).some((part) => part.startsWith("."));
  };
}

export function watchPath(options: WatchPathOptions): PathWatcher {
  const debounceMs = Math.max(0, options.debounceMs ?? 300);
  const watcher: FSWatcher = watch(options.path, {
    ignoreInitial: true,
    ignored: ignoredUnder(resolve(options.path)),
    atomic: true,
    usePolling: options.usePolling ?? false,
    // A file still being written is reported once it stops growing.
    awaitWriteFinish: { stabilityThreshold: Math.min(200, debounceMs + 50), pollInterval: 50 },
  });
  let changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const settleIdle = () => {
    if (timer !== undefined || running !== undefined) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const run = () => {
    timer = undefined;
    if (closed || running) return;
    const batch = [...changed];
    changed = new Set();
    running = options
      .ingest()
      .then(
        (summary) => options.onIngest?.(summary, batch),
        (error: unknown) => options.onError?.(error),
      )
      .finally(() => {
        running = undefined;
        // Changes that came in during the run get their own run.
        if (changed.size > 0 && !closed) schedule();
        else settleIdle();
      });
  };

  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(run, debounceMs);
  };

  const onChange = (path: string) => {
    changed.add(path);
    if (!running) schedule();
  };
  for (const event of ["add", "change", "unlink", "addDir", "unlinkDir"] as const) watcher.on(event, onChange);
  watcher.on("error", (error) => options.onError?.(error));
  const ready = new Promise<void>((resolve) => watcher.once("ready", () => resolve()));

  return {
    ready,
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      }),
    async close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await running;
      await watcher.close();
      settleIdle();
    },
  };
}
