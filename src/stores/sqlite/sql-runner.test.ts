import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import type { Principal } from "../../spec/principal.js";
import { alive } from "./__fixtures__/process-alive.js";
import { createSqliteStore, type SqliteStore } from "./index.js";
import type { SqlLimits } from "./sql-runner.js";

const here = dirname(fileURLToPath(import.meta.url));
const OWNER: Principal = { tenant: "acme", user: "o", roles: ["*"] };
const FOREVER = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
/** 400^3 rows of ~45 characters to sort: gigabytes of working memory if nothing stops it. */
const HUGE_SORT = "SELECT a.label || b.label || c.label AS k FROM big a, big b, big c ORDER BY k";

/** A store with table `big` (400 rows) and the given SQL limits. */
async function storeWith(limits: Partial<SqlLimits>): Promise<SqliteStore> {
  const store = await createSqliteStore({ path: ":memory:", sql: limits });
  await store.putSource({ name: "big", tenant: "acme", kind: "table", description: "Big", acl: [] });
  await store.writeTable({
    tenant: "acme",
    source: "big",
    file: "big.csv",
    schema: {
      name: "big",
      primaryKey: "n",
      columns: [
        { name: "n", type: "INTEGER" },
        { name: "label", type: "TEXT" },
      ],
    },
    rows: Array.from({ length: 400 }, (_, n) => ({ n, label: `label number ${n}` })),
  });
  return store;
}

describe("SQL runner limits", () => {
  it("stops a query whose working memory passes the cap, and runs the next one", async () => {
    const store = await storeWith({ memoryBytes: 64 * 1024 * 1024 });
    try {
      await expect(store.querySql(HUGE_SORT, OWNER, { timeoutMs: 120_000 })).rejects.toMatchObject({
        name: "SqlLimitError",
        category: "user",
        limit: "memory",
        capBytes: 64 * 1024 * 1024,
      });
      expect((await store.querySql("SELECT count(*) AS n FROM big", OWNER)).rows).toEqual([{ n: 400 }]);
    } finally {
      await store.close();
    }
  });

  it("cuts a result at the result-size cap and says so", async () => {
    const store = await storeWith({ maxResultBytes: 2000 });
    try {
      const result = await store.querySql("SELECT n, label FROM big ORDER BY n", OWNER, { maxRows: 1000 });
      expect(result.truncated).toBe(true);
      expect(result.truncatedBy).toBe("bytes");
      expect(result.rows.length).toBeGreaterThan(10);
      expect(result.rows.length).toBeLessThan(400);
      expect(Buffer.byteLength(JSON.stringify(result.rows))).toBeLessThanOrEqual(2000);
      expect(result.rows.at(-1)).toEqual({
        n: result.rows.length - 1,
        label: `label number ${result.rows.length - 1}`,
      });
    } finally {
      await store.close();
    }
  });

  it("cuts long values at the cell cap, never inside a surrogate pair, and shows blobs as their size", async () => {
    const store = await storeWith({ maxCellChars: 9 });
    try {
      const result = await store.querySql(
        "SELECT 'abcdefghijklmnop' AS text, '日本語のテキストです' AS cjk, '😀😀😀😀😀😀' AS emoji, " +
          "randomblob(5000) AS blob, 'short' AS fits, 42 AS number",
        OWNER,
      );
      expect(result.rows).toEqual([
        {
          text: "abcdefghi…",
          cjk: "日本語のテキストで…",
          emoji: "😀😀😀😀…",
          blob: "[blob of 5000 bytes]",
          fits: "short",
          number: 42,
        },
      ]);
      expect(result.clippedCells).toBe(4);
      expect(result.truncated).toBe(false);
    } finally {
      await store.close();
    }
  });
});

describe("SQL runner pool", () => {
  it("queues queries past the number of runners and answers each", async () => {
    const store = await storeWith({ runners: 1 });
    try {
      const answers = await Promise.all(
        [1, 2, 3].map((k) => store.querySql(`SELECT count(*) AS n FROM big WHERE n < ${k * 100}`, OWNER)),
      );
      expect(answers.map((a) => a.rows)).toEqual([[{ n: 100 }], [{ n: 200 }], [{ n: 300 }]]);
      expect(store.sqlRunnerPids()).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it("times out a query that waited its whole limit behind a runaway, and leaves the runaway to its caller", async () => {
    const store = await storeWith({ runners: 1 });
    const controller = new AbortController();
    try {
      const runaway = store.querySql(FOREVER, OWNER, { timeoutMs: 120_000, signal: controller.signal });
      await expect(store.querySql("SELECT 1 AS one", OWNER, { timeoutMs: 300 })).rejects.toMatchObject({
        name: "SqlTimeoutError",
        timeoutMs: 300,
      });
      controller.abort(new Error("enough"));
      await expect(runaway).rejects.toThrow("enough");
      expect((await store.querySql("SELECT 1 AS one", OWNER)).rows).toEqual([{ one: 1 }]);
    } finally {
      await store.close();
    }
  });

  it("does not count a new runner's start-up against the query's time limit", async () => {
    const store = await storeWith({});
    try {
      // The first query starts a runner. Hold this process's event loop well past the query's limit: the
      // runner's "started" message can only be read afterwards, so a clock that ran from the call would be up.
      const answer = store.querySql("SELECT count(*) AS n FROM big", OWNER, { timeoutMs: 2_000 });
      const until = Date.now() + 2_500;
      while (Date.now() < until) {
        // Busy on purpose: the timer and the runner's messages wait behind this loop.
      }
      expect((await answer).rows).toEqual([{ n: 400 }]);
    } finally {
      await store.close();
    }
  });

  it("kills its runners when the store closes, failing the running query as a StoreError", async () => {
    const store = await storeWith({});
    const running = store.querySql(FOREVER, OWNER, { timeoutMs: 120_000 });
    const [pid] = store.sqlRunnerPids();
    expect(pid).toBeDefined();
    await store.close();
    await expect(running).rejects.toMatchObject({ name: "StoreError" });
    await vi.waitFor(() => expect(alive(pid!)).toBe(false), { timeout: 10_000, interval: 50 });
    await expect(store.querySql("SELECT 1", OWNER)).rejects.toMatchObject({ name: "StoreError" });
  });

  it("never outlives its parent: a runner busy in SQLite dies when the parent is killed", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", join(here, "__fixtures__", "sql-orphan.ts")], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const pid = await new Promise<number>((resolve, reject) => {
      let out = "";
      let err = "";
      child.stdout?.on("data", (data) => {
        out += String(data);
        const match = /runner (\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.stderr?.on("data", (data) => {
        err += String(data);
      });
      child.on("exit", (code) => reject(new Error(`the fixture exited (${code}) early: ${err}`)));
    });
    expect(alive(pid)).toBe(true);
    child.removeAllListeners("exit");
    child.kill("SIGKILL");
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 10_000, interval: 50 });
  });
});
