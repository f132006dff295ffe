// @ts-check
/**
 * The SQL runner's watchdog: a thread of the runner process that stays free while the main thread is inside
 * SQLite. While a query runs it kills the whole process when the process's resident memory passes the query's
 * cap, or when the query's deadline has long passed (the parent normally kills it first). At any time it kills
 * the process when the parent process is gone, so a runaway query never outlives the program that started it.
 * Before killing, it writes one JSON line to stderr saying why; the parent reads it.
 */
import { writeSync } from "node:fs";
import { workerData } from "node:worker_threads";

/** How often to look, in ms: at ~250 MB/s of growth (a large sort) the cap is passed by at most a few MB. */
const EVERY_MS = 20;
/** The parent kills at the deadline; this is the fallback, late enough never to race it. */
const GRACE_MS = 2000;

/** @type {{ watch: BigInt64Array; ppid: number }} */
const { watch, ppid } = workerData;

setInterval(() => {
  if (process.ppid !== ppid) stop({ reason: "orphaned" });
  if (Atomics.load(watch, 0) !== 1n) return;
  const rss = process.memoryUsage.rss();
  const cap = Number(Atomics.load(watch, 2));
  if (rss > cap) stop({ reason: "memory", rss, cap });
  if (Date.now() > Number(Atomics.load(watch, 1)) + GRACE_MS) stop({ reason: "deadline" });
}, EVERY_MS);

/** @param {Record<string, unknown>} why */
function stop(why) {
  try {
    writeSync(2, `${JSON.stringify({ ferretSqlWatchdog: why })}\n`);
  } finally {
    process.kill(process.pid, "SIGKILL");
  }
}
