import { execFileSync } from "node:child_process";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../test/fixtures/ingest/fixtures.js";
import { DEFAULT_INGEST_LIMITS, resolveLimits } from "./limits.js";
import { loadFile } from "./load-file.js";

const at = (name: string) => ({ absPath: `${FIXTURES}${name}`, relPath: name });

describe("loadFile", () => {
  it("skips binary, empty, oversized and unsupported files with a reason", async () => {
    expect(await loadFile(at("binary.txt"))).toEqual({ kind: "skipped", reason: "binary file (contains NUL bytes)" });
    expect(await loadFile(at("empty.md"))).toEqual({ kind: "skipped", reason: "empty file" });
    const big = await loadFile({ ...at("handbook.md"), limits: { maxFileBytes: 100 } });
    expect(big.kind).toBe("skipped");
    expect(big.kind === "skipped" && big.reason).toMatch(/over the 100-byte limit/);
    const dir = await mkdtemp(join(tmpdir(), "ferret-unsupported-"));
    await writeFile(join(dir, "drawing.svgz"), "not a format ferret reads");
    expect(await loadFile({ absPath: join(dir, "drawing.svgz"), relPath: "drawing.svgz" })).toEqual({
      kind: "skipped",
      reason: "unsupported file type",
    });
    await rm(dir, { recursive: true, force: true });
  });

  it("reports malformed, corrupt and encrypted files as failures naming the file", async () => {
    for (const name of ["malformed.csv", "malformed.jsonl", "corrupt.pdf", "encrypted.pdf"]) {
      const outcome = await loadFile(at(name));
      expect(outcome.kind).toBe("failed");
      expect(outcome.kind === "failed" && outcome.reason.startsWith(name)).toBe(true);
    }
  });

  it("loads a PDF, which is binary by nature, and carries warnings", async () => {
    const pdf = await loadFile(at("launch-checklist.pdf"));
    expect(pdf.kind === "loaded" && pdf.docs[0]?.title).toBe("Launch Checklist");
    const bad = await loadFile(at("invalid-utf8.txt"));
    expect(bad.kind === "loaded" && bad.warnings).toHaveLength(1);
  });

  it("loads a file of exactly the cap and skips one byte more, naming the cap", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ferret-cap-"));
    try {
      await writeFile(join(dir, "at.txt"), "x".repeat(100));
      await writeFile(join(dir, "over.txt"), "x".repeat(101));
      const limits = { maxFileBytes: 100 };
      const at = await loadFile({ absPath: join(dir, "at.txt"), relPath: "at.txt", limits });
      expect(at.kind === "loaded" && at.docs[0]?.text).toBe("x".repeat(100));
      expect(await loadFile({ absPath: join(dir, "over.txt"), relPath: "over.txt", limits })).toEqual({
        kind: "skipped",
        reason: "file is 101 bytes, over the 100-byte limit (maxFileBytes)",
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(process.platform !== "linux")("never reads past the cap, whatever the size on disk says", async () => {
    // /proc files report size 0 and hold more: the read itself must stop at the cap.
    const dir = await mkdtemp(join(tmpdir(), "ferret-cap-"));
    try {
      await symlink("/proc/self/status", join(dir, "status.txt"));
      const outcome = await loadFile({
        absPath: join(dir, "status.txt"),
        relPath: "status.txt",
        limits: { maxFileBytes: 100 },
      });
      expect(outcome).toEqual({
        kind: "skipped",
        reason: "file is more than 100 bytes, over the 100-byte limit (maxFileBytes)",
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("loadFile on special files", () => {
  it.skipIf(process.platform === "win32")("skips a named pipe without waiting for a writer", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ferret-fifo-"));
    try {
      execFileSync("mkfifo", [join(dir, "queue.txt")]);
      expect(await loadFile({ absPath: join(dir, "queue.txt"), relPath: "queue.txt" })).toEqual({
        kind: "skipped",
        reason: "not a regular file",
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("resolveLimits", () => {
  it("takes the defaults and the caller's overrides, ignoring values that are not counts", () => {
    expect(resolveLimits()).toEqual(DEFAULT_INGEST_LIMITS);
    expect(resolveLimits({ maxFileBytes: 10, maxZipEntries: Number.NaN, maxZipBytes: -1 })).toEqual({
      ...DEFAULT_INGEST_LIMITS,
      maxFileBytes: 10,
    });
  });
});
