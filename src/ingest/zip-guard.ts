import yauzl, { type Entry, type ZipFile } from "yauzl";
import { InvalidInputError, LimitExceededError } from "../spec/errors.js";
import type { IngestLimits } from "./limits.js";

export interface ZipGuardOptions {
  bytes: Uint8Array;
  /** Named in errors. */
  relPath: string;
  /** What the container is, for messages (`.docx file`). */
  kind: string;
  limits: Pick<IngestLimits, "maxZipEntries" | "maxZipBytes">;
  /** Entries whose inflated bytes to return (`ppt/slides/slide1.xml`); the rest are counted and discarded. */
  keep?: (entryName: string) => boolean;
}

function over(options: ZipGuardOptions, limit: "maxZipEntries" | "maxZipBytes", value: number, what: string) {
  const cap = options.limits[limit];
  return new LimitExceededError(`${options.relPath}: ${what}, over the cap of ${cap} (${limit})`, {
    file: options.relPath,
    limit,
    cap,
    value,
  });
}

function unreadable(options: ZipGuardOptions, cause: unknown, context: Record<string, unknown> = {}) {
  return new InvalidInputError(
    `${options.relPath}: not a readable ${options.kind} (${(cause as Error).message})`,
    { file: options.relPath, ...context },
    cause,
  );
}

/** Every entry of the central directory, read one at a time (nothing is inflated). */
function readEntries(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on("entry", (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on("end", () => resolve(entries));
    zip.on("error", reject);
    zip.readEntry();
  });
}

/**
 * Inflates one entry, counting bytes and discarding them; stops at the first chunk past the entry's
 * declared size (a lie: corrupt or a bomb) or past the remaining budget (the cap).
 */
async function inflateCounted(
  options: ZipGuardOptions,
  zip: ZipFile,
  entry: Entry,
  before: number,
  kept?: Buffer[],
): Promise<number> {
  const cap = options.limits.maxZipBytes;
  const stream = await zip.openReadStreamPromise(entry);
  let bytes = 0;
  try {
    for await (const chunk of stream) {
      bytes += (chunk as Buffer).length;
      kept?.push(chunk as Buffer);
      // Cannot pass while every entry keeps to its declared size (their sum was checked); kept as a backstop.
      if (before + bytes > cap)
        throw over(options, "maxZipBytes", before + bytes, `zip inflates to more than ${cap} bytes`);
      if (bytes > entry.uncompressedSize)
        throw unreadable(
          options,
          new Error(`entry "${entry.fileName}" inflates past its declared ${entry.uncompressedSize} bytes`),
          { entry: entry.fileName, declared: entry.uncompressedSize, inflated: bytes },
        );
    }
  } finally {
    stream.destroy();
  }
  return bytes;
}

/**
 * Checks a zip container (DOCX) against the entry and size caps before any parser inflates it:
 * first the entry count and the sum of uncompressed sizes the central directory declares, then every
 * entry is inflated and counted (the data discarded), stopping at once when the total passes the cap
 * or an entry grows past its declared size, since a zip bomb may lie about its sizes. Throws
 * `LimitExceededError` naming the cap, or `InvalidInputError` when the bytes are not a readable zip
 * (including an entry that inflates past its declared size). Returns the inflated bytes of the entries
 * `keep` names (within the same caps), so a loader can read a container without inflating it twice.
 */
export async function checkZip(options: ZipGuardOptions): Promise<Map<string, Buffer>> {
  const { bytes, limits } = options;
  let zip: ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      lazyEntries: true,
      // Sizes are checked here, chunk by chunk, so the error can say how far inflation got.
      validateEntrySizes: false,
      autoClose: false,
    });
  } catch (cause) {
    throw unreadable(options, cause);
  }
  try {
    if (zip.entryCount > limits.maxZipEntries)
      throw over(options, "maxZipEntries", zip.entryCount, `zip holds ${zip.entryCount} entries`);
    let entries: Entry[];
    try {
      entries = await readEntries(zip);
    } catch (cause) {
      throw unreadable(options, cause);
    }
    let declared = 0;
    for (const entry of entries) declared += entry.uncompressedSize;
    if (declared > limits.maxZipBytes)
      throw over(options, "maxZipBytes", declared, `zip declares ${declared} uncompressed bytes`);
    let inflated = 0;
    const out = new Map<string, Buffer>();
    for (const entry of entries) {
      if (entry.fileName.endsWith("/")) continue;
      const kept = options.keep?.(entry.fileName) ? [] : undefined;
      try {
        inflated += await inflateCounted(options, zip, entry, inflated, kept);
        if (kept) out.set(entry.fileName, Buffer.concat(kept));
      } catch (cause) {
        if (cause instanceof LimitExceededError || cause instanceof InvalidInputError) throw cause;
        throw unreadable(options, cause);
      }
    }
    return out;
  } finally {
    zip.close();
  }
}
