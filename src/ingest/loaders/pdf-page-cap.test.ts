import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBlankPdf, buildFilingPdf } from "../../../test/fixtures/pdf/filing.js";
import { LimitExceededError } from "../../spec/errors.js";
import { createSqliteStore } from "../../stores/sqlite/index.js";
import { ingestPath } from "../ingest.js";
import { DEFAULT_INGEST_LIMITS } from "../limits.js";
import { loadFile } from "../load-file.js";
import { loadPdf } from "./pdf.js";

describe("PDF page cap", () => {
  const dir = { path: "" };
  beforeAll(async () => {
    dir.path = await mkdtemp(join(tmpdir(), "ferret-pdf-cap-"));
  });
  afterAll(async () => {
    await rm(dir.path, { recursive: true, force: true });
  });

  it("skips a PDF over the page cap, naming the cap, before reading its pages", async () => {
    const bytes = (await buildFilingPdf({ pages: 3 })).bytes;
    const error = await loadPdf({
      bytes,
      relPath: "big.pdf",
      limits: { ...DEFAULT_INGEST_LIMITS, maxPdfPages: 2 },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LimitExceededError);
    expect((error as Error).message).toBe("PDF has 3 pages, over the 2-page limit (maxPdfPages)");
    await writeFile(join(dir.path, "big.pdf"), bytes);
    const outcome = await loadFile({
      absPath: join(dir.path, "big.pdf"),
      relPath: "big.pdf",
      limits: { maxPdfPages: 2 },
    });
    expect(outcome).toEqual({ kind: "skipped", reason: "PDF has 3 pages, over the 2-page limit (maxPdfPages)" });
    expect((await loadFile({ absPath: join(dir.path, "big.pdf"), relPath: "big.pdf" })).kind).toBe("loaded");
  });

  it("applies the default cap of 2,000 pages and ingests the rest of the folder", async () => {
    expect(DEFAULT_INGEST_LIMITS.maxPdfPages).toBe(2000);
    const folder = join(dir.path, "set");
    await mkdir(folder);
    await writeFile(join(folder, "huge.pdf"), await buildBlankPdf(2001));
    await writeFile(join(folder, "small.pdf"), (await buildFilingPdf({ pages: 1 })).bytes);
    const store = await createSqliteStore({ path: join(dir.path, "ferret.db") });
    try {
      const summary = await ingestPath({ store, path: folder, tenant: "t" });
      expect(summary.skipped).toEqual([
        { file: "huge.pdf", reason: "PDF has 2001 pages, over the 2000-page limit (maxPdfPages)" },
      ]);
      expect(summary.failed).toEqual([]);
      expect(summary.added).toBe(1);
    } finally {
      await store.close();
    }
  });
});
