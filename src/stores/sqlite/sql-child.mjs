// @ts-check
/**
 * The SQL runner's process: runs one model- or user-written query at a time over a private, query-only copy of
 * the permitted tables, sent by the store as a serialized database image. Plain JavaScript that needs only
 * better-sqlite3, so the same file runs from `src/` (tests) and `dist/`.
 *
 * Why a process and not a worker thread: better-sqlite3 runs a statement to its end inside native code, where
 * `worker.terminate()` cannot reach (the thread keeps running and even `process.exit` waits for it). A process
 * can always be killed. The parent kills it when the query's time is up or the caller aborts; the watchdog
 * thread (`sql-watchdog.mjs`) kills it when the query's memory grows past its cap or the parent is gone.
 */
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";

/** Open copies kept, most recently used last. */
const OPEN_COPIES = 4;

/** Shared with the watchdog: [armed 0/1, deadline in epoch ms, RSS cap in bytes]. */
const watch = new BigInt64Array(new SharedArrayBuffer(3 * 8));
const watchdog = new Worker(new URL("./sql-watchdog.mjs", import.meta.url), {
  workerData: { watch, ppid: process.ppid },
});
watchdog.unref();

/** @type {Map<string, import("better-sqlite3").Database>} */
const copies = new Map();

/**
 * @typedef {{ maxResultBytes: number; maxCellChars: number; memoryBytes: number }} Limits
 * @typedef {{ type: "query"; id: number; key: string; image?: Uint8Array; sql: string; maxRows: number;
 *   limits: Limits; budgetMs: number }} QueryMessage
 */

process.on("message", (/** @type {QueryMessage} */ message) => {
  if (message?.type === "query") handle(message);
});
// The parent is gone (or closed the store): nothing more will come.
process.on("disconnect", () => process.exit(0));
// Started: the parent starts a query's clock only now, so a slow process start does not count against it.
process.send?.({ type: "ready" });

/** @param {QueryMessage} message */
function handle(message) {
  const { id } = message;
  let db = copies.get(message.key);
  if (db === undefined) {
    if (message.image === undefined) {
      reply({ type: "need-image", id });
      return;
    }
    try {
      db = openCopy(message.image);
    } catch (error) {
      reply({ type: "error", id, ...describe(error) });
      return;
    }
    copies.set(message.key, db);
    while (copies.size > OPEN_COPIES) {
      const [oldest, copy] = copies.entries().next().value ?? [];
      if (oldest === undefined || copy === undefined) break;
      copy.close();
      copies.delete(oldest);
    }
  } else {
    copies.delete(message.key);
    copies.set(message.key, db);
  }
  arm(message.budgetMs, message.limits.memoryBytes);
  try {
    reply({ type: "result", id, ...run(db, message) });
  } catch (error) {
    reply({ type: "error", id, ...describe(error) });
  } finally {
    disarm();
  }
}

/** @param {Uint8Array} image */
function openCopy(image) {
  const db = new Database(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  db.pragma("query_only = 1");
  // Sorts and temporary b-trees stay in this process's memory, where the watchdog's cap and the kill bound
  // them; a temp file would grow on disk where neither reaches.
  db.pragma("temp_store = MEMORY");
  return db;
}

/**
 * @param {import("better-sqlite3").Database} db
 * @param {QueryMessage} message
 */
function run(db, message) {
  const { maxResultBytes, maxCellChars } = message.limits;
  const statement = db.prepare(message.sql);
  if (!statement.reader || !statement.readonly) {
    throw rejected("not_read_only", "Only read-only SELECT queries are allowed; this statement would change data.");
  }
  const columns = statement.columns().map((column) => column.name);
  /** @type {Record<string, unknown>[]} */
  const rows = [];
  /** @type {"rows" | "bytes" | undefined} */
  let truncatedBy;
  let bytes = 2;
  let clippedCells = 0;
  for (const row of /** @type {Iterable<Record<string, unknown>>} */ (statement.iterate())) {
    if (rows.length === message.maxRows) {
      truncatedBy = "rows";
      break;
    }
    for (const [name, value] of Object.entries(row)) {
      const clipped = clip(value, maxCellChars);
      if (clipped !== value) {
        row[name] = clipped;
        clippedCells++;
      }
    }
    const size = Buffer.byteLength(JSON.stringify(row)) + 1;
    if (bytes + size > maxResultBytes) {
      truncatedBy = "bytes";
      break;
    }
    bytes += size;
    rows.push(row);
  }
  return { columns, rows, truncatedBy, clippedCells };
}

/**
 * A cell as the caller may see it: text cut to `max` characters (not inside a surrogate pair), a blob as a note of
 * its size.
 * @param {unknown} value
 * @param {number} max
 */
function clip(value, max) {
  if (typeof value === "string" && value.length > max) {
    const code = value.charCodeAt(max - 1);
    const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
    return `${value.slice(0, end)}…`;
  }
  if (Buffer.isBuffer(value)) return `[blob of ${value.length} bytes]`;
  if (typeof value === "bigint") return Number(value);
  return value;
}

/**
 * @param {string} reason
 * @param {string} message
 */
function rejected(reason, message) {
  return Object.assign(new Error(message), { rejected: reason });
}

/**
 * An error as the parent maps it: a driver error keeps its SQLite code; better-sqlite3's RangeError means the
 * text held no statement or more than one.
 * @param {unknown} error
 */
function describe(error) {
  const e = /** @type {{ code?: unknown; message?: unknown; rejected?: unknown }} */ (error ?? {});
  const message = typeof e.message === "string" ? e.message : String(error);
  if (typeof e.rejected === "string") return { kind: "rejected", reason: e.rejected, message };
  if (typeof e.code === "string" && e.code.startsWith("SQLITE_")) return { kind: "sqlite", code: e.code, message };
  if (error instanceof RangeError) {
    return { kind: "rejected", reason: "not_one_statement", message: "Run exactly one SELECT statement." };
  }
  return { kind: "internal", message };
}

/**
 * @param {number} budgetMs
 * @param {number} memoryBytes
 */
function arm(budgetMs, memoryBytes) {
  Atomics.store(watch, 1, BigInt(Date.now() + Math.max(0, Math.ceil(budgetMs))));
  Atomics.store(watch, 2, BigInt(process.memoryUsage.rss() + memoryBytes));
  Atomics.store(watch, 0, 1n);
}

function disarm() {
  Atomics.store(watch, 0, 0n);
}

/** @param {Record<string, unknown>} message */
function reply(message) {
  process.send?.(message);
}
