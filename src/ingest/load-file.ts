import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { LimitExceededError } from "../spec/errors.js";
import { binaryReason } from "./decode.js";
import { DEFAULT_INGEST_LIMITS, type IngestLimits, resolveLimits } from "./limits.js";
import type { LoaderRegistry } from "./loader-registry.js";
import { defaultLoaders } from "./loaders/index.js";
import type { LoadResult } from "./types.js";

export const DEFAULT_MAX_FILE_BYTES = DEFAULT_INGEST_LIMITS.maxFileBytes;

export type FileOutcome =
  | ({ kind: "loaded" } & LoadResult)
  /** Not content ferret can use (unsupported type, binary, empty, over a cap): left out, not an error. */
  | { kind: "skipped"; reason: string }
  /** Content that should load but cannot (malformed, corrupt, encrypted): reported as a failure. */
  | { kind: "failed"; reason: string; error: unknown };

const overFileCap = (size: string, cap: number): FileOutcome => ({
  kind: "skipped",
  reason: `file is ${size} bytes, over the ${cap}-byte limit (maxFileBytes)`,
});

/**
 * Reads at most `cap + 1` bytes from an open file: whatever its size said a moment ago, a file that
 * grew (or a special file that reports size 0) is never read past the cap. Undefined when over it.
 */
async function readCapped(handle: FileHandle, cap: number): Promise<Uint8Array | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const want = Math.min(cap + 1 - total, 1024 * 1024);
    const chunk = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(chunk, 0, want, null);
    if (bytesRead === 0) break;
    chunks.push(bytesRead === want ? chunk : chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > cap) return undefined;
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
}

/**
 * Checks and loads one file: the size of the opened file against the cap before reading (and the read
 * itself capped), then emptiness, binary content, the loader. A loader's `LimitExceededError` (zip,
 * front matter, ...) skips the file with the cap named; other errors fail it with their message.
 */
export async function loadFile(options: {
  absPath: string;
  relPath: string;
  tableName?: string;
  /** Caps; defaults for any not given. */
  limits?: Partial<IngestLimits>;
  /** Loaders by extension; the process-wide registry (built-ins and `registerLoader`) when absent. */
  loaders?: LoaderRegistry;
}): Promise<FileOutcome> {
  const { absPath, relPath } = options;
  const entry = (options.loaders ?? defaultLoaders).forPath(relPath);
  if (!entry) return { kind: "skipped", reason: "unsupported file type" };
  const limits = resolveLimits(options.limits);
  const cap = limits.maxFileBytes;
  try {
    let bytes: Uint8Array | undefined;
    // Non-blocking, so that opening a named pipe returns at once (and is then skipped as not a file).
    const handle = await open(absPath, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const info = await handle.stat();
      if (!info.isFile()) return { kind: "skipped", reason: "not a regular file" };
      if (info.size > cap) return overFileCap(String(info.size), cap);
      bytes = await readCapped(handle, cap);
    } finally {
      await handle.close();
    }
    if (bytes === undefined) return overFileCap(`more than ${cap}`, cap);
    if (bytes.length === 0) return { kind: "skipped", reason: "empty file" };
    if (entry.text) {
      const binary = binaryReason(bytes);
      if (binary) return { kind: "skipped", reason: binary };
    }
    const result = await entry.load({
      bytes,
      relPath,
      tableName: options.tableName,
      limits,
      loaders: options.loaders ?? defaultLoaders,
    });
    return { kind: "loaded", ...result };
  } catch (error) {
    if (error instanceof LimitExceededError) return { kind: "skipped", reason: error.message };
    return { kind: "failed", reason: error instanceof Error ? error.message : String(error), error };
  }
}
