import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES } from "../../../test/fixtures/ingest/fixtures.js";
import { resolveLimits } from "../limits.js";
import { type ParseTask, parseFile } from "./parse-file.js";
import { createParsePool } from "./parse-pool.js";

const dir = mkdtempSync(join(tmpdir(), "ferret-pool-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function task(absPath: string, relPath: string, known = new Map<string, string>()): ParseTask {
  return { absPath, relPath, tableName: "t", limits: resolveLimits(), source: "s", tenant: "t", sourceAcl: [], known };
}

const MISBEHAVING = new URL("./__fixtures__/misbehaving-worker.ts", import.meta.url);

function file(name: string, text = "# Note\n\nA short note about refunds.\n"): ParseTask {
  writeFileSync(join(dir, name), text);
  return task(join(dir, name), name);
}

describe("parse pool", () => {
  it("parses in worker threads exactly what parseFile parses in process", async () => {
    const names = [
      "handbook.md",
      "zh-test-procedure.md",
      "launch-checklist.pdf",
      "parts.csv",
      "page.html",
      "corrupt.pdf",
    ];
    const pool = createParsePool({ workers: 2 });
    try {
      const tasks = names.map((name) => task(join(FIXTURES, name), name));
      const inWorkers = await Promise.all(tasks.map((t) => pool.parse(t)));
      const inProcess = await Promise.all(tasks.map((t) => parseFile(t)));
      expect(inWorkers).toEqual(inProcess);
      expect(inWorkers.map((p) => p.kind)).toEqual(["loaded", "loaded", "loaded", "loaded", "loaded", "failed"]);
    } finally {
      await pool.close();
    }
  });

  it("does not chunk a document whose stored hash is unchanged", async () => {
    const t = task(join(FIXTURES, "handbook.md"), "handbook.md");
    const first = await parseFile(t);
    if (first.kind !== "loaded" || first.docs[0]?.kind !== "changed") throw new Error("expected a changed document");
    const known = new Map([["handbook.md", first.docs[0].write.doc.contentHash]]);
    const again = await parseFile({ ...t, known });
    expect(again).toMatchObject({ kind: "loaded", docs: [{ kind: "unchanged", id: "handbook.md" }] });
  });

  it("fails a parse that runs past the timeout, names the limit, and goes on with a fresh worker", async () => {
    const pool = createParsePool({ workers: 1, limits: { parseTimeoutMs: 1_000 }, entry: MISBEHAVING });
    try {
      const stalled = await pool.parse(file("stall.txt"));
      expect(stalled.kind).toBe("failed");
      expect(stalled.kind === "failed" && stalled.reason).toContain("1000 ms parse timeout (limits.parseTimeoutMs)");
      expect(await pool.parse(file("after-stall.md"))).toMatchObject({ kind: "loaded" });
    } finally {
      await pool.close();
    }
  });

  it("fails a parse that outgrows the worker heap, names the limit, and goes on", async () => {
    const pool = createParsePool({ workers: 1, limits: { parseHeapMb: 64 }, entry: MISBEHAVING });
    try {
      const grown = await pool.parse(file("heap.txt"));
      expect(grown.kind === "failed" && grown.reason).toContain("64 MB parse worker heap (limits.parseHeapMb)");
      expect(await pool.parse(file("after-heap.md"))).toMatchObject({ kind: "loaded" });
    } finally {
      await pool.close();
    }
  });

  it("fails only the file whose worker throws or exits", async () => {
    const pool = createParsePool({ workers: 2, entry: MISBEHAVING });
    try {
      const [thrown, fine, exited] = await Promise.all([
        pool.parse(file("throw.txt")),
        pool.parse(file("fine.md")),
        pool.parse(file("exit.txt")),
      ]);
      expect(thrown.kind === "failed" && thrown.reason).toContain("parser bug on purpose");
      expect(fine).toMatchObject({ kind: "loaded" });
      expect(exited.kind === "failed" && exited.reason).toContain("exited with code: 7");
    } finally {
      await pool.close();
    }
  });

  it("survives a worker failing after its task returned, and parses on", async () => {
    const pool = createParsePool({ workers: 1, entry: MISBEHAVING });
    try {
      expect(await pool.parse(file("stray.txt"))).toMatchObject({ kind: "loaded" });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await pool.parse(file("after-stray.md"))).toMatchObject({ kind: "loaded" });
    } finally {
      await pool.close();
    }
  });

  it("parses in process with no workers", async () => {
    const pool = createParsePool({ workers: 0 });
    expect(pool.concurrency).toBe(1);
    expect(await pool.parse(file("inproc.md"))).toMatchObject({ kind: "loaded" });
    await pool.close();
  });
});
