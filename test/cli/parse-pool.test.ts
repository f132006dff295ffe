import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_INGEST_LIMITS } from "../../src/ingest/limits.js";
import type * as ParseModule from "../../src/ingest/pool/parse-file.js";
import type * as PoolModule from "../../src/ingest/pool/parse-pool.js";
import { INGEST_FIXTURES, ROOT } from "./run-cli.js";

/** The compiled parse pool (dist/, built by global-setup.ts), as the CLI runs it: JavaScript workers, no tsx. */
async function compiled() {
  const load = async <T>(path: string) => (await import(join(ROOT, "dist", path))) as T;
  return {
    pool: await load<typeof PoolModule>("ingest/pool/parse-pool.js"),
    parse: await load<typeof ParseModule>("ingest/pool/parse-file.js"),
  };
}

describe("compiled parse pool", () => {
  it("parses in worker threads by default, with the same result as in process", async () => {
    const { pool: poolModule, parse } = await compiled();
    expect(poolModule.defaultParseWorkers()).toBeGreaterThanOrEqual(1);
    const pool = poolModule.createParsePool();
    expect(pool.concurrency).toBe(poolModule.defaultParseWorkers());
    try {
      const tasks = ["handbook.md", "launch-checklist.pdf", "parts.csv", "encrypted.pdf"].map((name) => ({
        absPath: join(INGEST_FIXTURES, name),
        relPath: name,
        tableName: "t",
        limits: DEFAULT_INGEST_LIMITS,
        source: "s",
        tenant: "t",
        sourceAcl: [],
        known: new Map<string, string>(),
      }));
      const pooled = await Promise.all(tasks.map((t) => pool.parse(t)));
      expect(pooled).toEqual(await Promise.all(tasks.map((t) => parse.parseFile(t))));
      expect(pooled.map((p) => p.kind)).toEqual(["loaded", "loaded", "loaded", "failed"]);
    } finally {
      await pool.close();
    }
  });
});
