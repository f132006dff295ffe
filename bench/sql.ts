/**
 * sql: what running user SQL in a killable runner process costs and what it bounds. Warm query latency through
 * `store.querySql` (IPC to the runner) vs the same query on the same private copy in this process with
 * better-sqlite3 (how queries ran before: fast, but nothing could stop them); the first query (runner start);
 * the longest event-loop stall of this process while a runaway recursive CTE runs to its time limit; and the
 * runner's peak RSS while an ORDER BY over a huge join is stopped by the working-memory cap (Linux only).
 */
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import type { Principal } from "../src/spec/principal.js";
import { createSqliteStore } from "../src/stores/sqlite/index.js";
import { DEFAULT_SQL_LIMITS } from "../src/stores/sqlite/sql-runner.js";
import { latency, now, timeEach } from "./measure.js";
import type { BenchContext, Benchmark, BenchResult } from "./report.js";

const OWNER: Principal = { tenant: "bench", user: "b", roles: ["*"] };
const ROWS = 10_000;
const QUERY = "SELECT region, count(*) AS n, sum(amount) AS total FROM orders GROUP BY region ORDER BY region";
const RUNAWAY = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
const HUGE_SORT = "SELECT a.region || b.region || c.region AS k FROM orders a, orders b, orders c ORDER BY k";
const MIB = 1024 * 1024;

/** Resident set of `pid` in bytes from /proc, or undefined where there is none. */
function rssOf(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const queries = ctx.quick ? 100 : 300;
  const store = await createSqliteStore({ path: ":memory:" });
  await store.putSource({ name: "orders", tenant: "bench", kind: "table", description: "Orders", acl: [] });
  await store.writeTable({
    tenant: "bench",
    source: "orders",
    file: "orders.csv",
    schema: {
      name: "orders",
      primaryKey: "id",
      columns: [
        { name: "id", type: "INTEGER" },
        { name: "region", type: "TEXT" },
        { name: "amount", type: "REAL" },
      ],
    },
    rows: Array.from({ length: ROWS }, (_, id) => ({ id, region: `region-${id % 7}`, amount: (id % 97) * 1.5 })),
  });

  ctx.progress(`sql: first query (runner start), then ${queries} warm queries each way`);
  const t0 = now();
  await store.querySql(QUERY, OWNER);
  const firstMs = now() - t0;
  const inputs = Array.from({ length: queries }, (_, i) => i);
  const viaRunner = latency(await timeEach(inputs, () => store.querySql(QUERY, OWNER)));
  const local = new Database(":memory:");
  local.exec("CREATE TABLE orders (id INTEGER, region TEXT, amount REAL)");
  const insert = local.prepare("INSERT INTO orders VALUES (?, ?, ?)");
  local.transaction(() => {
    for (let id = 0; id < ROWS; id++) insert.run(id, `region-${id % 7}`, (id % 97) * 1.5);
  })();
  const statement = local.prepare(QUERY);
  const inProcess = latency(await timeEach(inputs, () => statement.all()));
  local.close();

  ctx.progress("sql: a runaway recursive CTE to its 2 s limit, measuring this process's event-loop stalls");
  let stall = 0;
  let last = now();
  const ticker = setInterval(() => {
    const t = now();
    stall = Math.max(stall, t - last - 10);
    last = t;
  }, 10);
  const runaway = await store.querySql(RUNAWAY, OWNER, { timeoutMs: 2000 }).then(
    () => "finished",
    (error: Error) => error.name,
  );
  clearInterval(ticker);

  ctx.progress("sql: an ORDER BY over a huge join with the default limits, sampling the runner's RSS");
  // The runaway's runner was killed: this query starts a fresh one (forked at once, so its pid is known now).
  const sorting = store.querySql(HUGE_SORT, OWNER, { timeoutMs: 30_000 }).then(
    () => "finished",
    (error: Error) => error.name,
  );
  const [pid] = store.sqlRunnerPids();
  let startRss: number | undefined;
  let peakRss = Number.NaN;
  const sampler = setInterval(() => {
    const rss = pid === undefined ? undefined : rssOf(pid);
    if (rss === undefined) return;
    startRss ??= rss;
    peakRss = Number.isNaN(peakRss) ? rss : Math.max(peakRss, rss);
  }, 10);
  const sort = await sorting;
  clearInterval(sampler);
  await store.close();

  const cap = DEFAULT_SQL_LIMITS.memoryBytes;
  return {
    name: "sql",
    rows: [
      {
        metric: "warm query p50",
        unit: "ms",
        ferret: viaRunner.p50,
        baseline: inProcess.p50,
        baselineName: "in-process better-sqlite3",
        better: "lower",
      },
      {
        metric: "warm query p95",
        unit: "ms",
        ferret: viaRunner.p95,
        baseline: inProcess.p95,
        baselineName: "in-process better-sqlite3",
        better: "lower",
      },
      { metric: "first query (runner start)", unit: "ms", ferret: firstMs, better: "lower" },
      {
        metric: "longest event-loop stall during a runaway",
        unit: "ms",
        ferret: stall,
        better: "lower",
        target: { op: "<", value: 250 },
      },
      {
        metric: "runner peak RSS, huge sort",
        unit: "MiB",
        ferret: peakRss / MIB,
        better: "lower",
        target: { op: "<=", value: ((startRss ?? 0) + cap) / MIB + 64 },
      },
    ],
    notes: [
      `${ROWS}-row table, ${queries} GROUP BY queries each way; the runner copy is cached, so warm queries measure IPC`,
      `runaway: ${RUNAWAY} with timeoutMs 2000 -> ${runaway} (the old in-process path blocked the event loop for ever)`,
      `huge sort: ${HUGE_SORT} (${ROWS}^3 rows) with the default ${cap / MIB} MiB working-memory cap -> ${sort}; ` +
        `runner RSS at its start ${startRss === undefined ? "n/a (no /proc)" : `${(startRss / MIB).toFixed(0)} MiB`}`,
      "stall: the largest gap past 10 ms between ticks of a 10 ms timer in this process (machine noise included)",
    ],
  };
}

export const sqlBenchmark: Benchmark = {
  name: "sql",
  description: "user SQL in a killable runner: warm latency vs in-process, runner start, stalls, memory cap",
  run,
};
