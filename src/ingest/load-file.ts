import { open, stat } from "node:fs/promises";
import { LimitExceededError } from "../spec/errors.js";
import { binaryReason } from "./decode.js";
import type { IngestLimits } from "./limits.js";
import { loaderFor } from "./loaders/index.js";
import type { LoadResult } from "./types.js";

export const DEFAULT_MAX_FILE_BYTES = 50 * 1024 * 1024;

export type FileOutcome =
  | ({ kind: "loaded" } & LoadResult)
  /** Not content ferret can use (unsupported type, binary, empty, too large): left out, not an error. */
  | { kind: "skipped"; reason: string }
  /** Content that should load but cannot (malformed, corrupt, encrypted): reported as a failure. */
  | { kind: "failed"; reason: string; error: unknown };

/** Checks and loads one file: size by stat before reading, then emptiness, binary content, the loader. */
export async function loadFile(options: {
  absPath: string;
  relPath: string;
  tableName?: string;
  maxFileBytes?: number;
  limits?: IngestLimits;
}): Promise<FileOutcome> {
  const { absPath, relPath } = options;
  const entry = loaderFor(relPath);
  if (!entry) return { kind: "skipped", reason: "unsupported file type" };
  const limit = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  try {
    const info = await stat(absPath);
    if (info.size > limit)
      return { kind: "skipped", reason: `file is ${info.size} bytes, over the ${limit}-byte limit` };
    if (info.size === 0) return { kind: "skipped", reason: "empty file" };
    const handle = await open(absPath, "r");
    let bytes: Uint8Array;
    try {
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
    if (bytes.length === 0) return { kind: "skipped", reason: "empty file" };
    if (entry.text) {
      const binary = binaryReason(bytes);
      if (binary) return { kind: "skipped", reason: binary };
    }
    const result = await entry.load({ bytes, relPath, tableName: options.tableName, limits: options.limits });
    return { kind: "loaded", ...result };
  } catch (error) {
    if (error instanceof LimitExceededError) return { kind: "skipped", reason: error.message };
    return { kind: "failed", reason: error instanceof Error ? error.message : String(error), error };
  }
}
