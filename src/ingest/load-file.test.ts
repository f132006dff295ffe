import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../test/fixtures/ingest/fixtures.js";
import { loadFile } from "./load-file.js";

const at = (name: string) => ({ absPath: `${FIXTURES}${name}`, relPath: name });

describe("loadFile", () => {
  it("skips binary, empty, oversized and unsupported files with a reason", async () => {
    expect(await loadFile(at("binary.txt"))).toEqual({ kind: "skipped", reason: "binary file (contains NUL bytes)" });
    expect(await loadFile(at("empty.md"))).toEqual({ kind: "skipped", reason: "empty file" });
    const big = await loadFile({ ...at("handbook.md"), maxFileBytes: 100 });
    expect(big.kind).toBe("skipped");
    expect(big.kind === "skipped" && big.reason).toMatch(/over the 100-byte limit/);
    expect(await loadFile(at("fixtures.ts"))).toEqual({ kind: "skipped", reason: "unsupported file type" });
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
});
