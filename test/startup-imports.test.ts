import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { html, startTestSite } from "../src/ingest/web/web-test-server.js";

const here = dirname(fileURLToPath(import.meta.url));
const child = join(here, "fixtures", "startup", "ingest-folder.ts");
const dir = mkdtempSync(join(tmpdir(), "ferret-startup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("start-up imports", () => {
  it("creating a ferret and ingesting a folder loads no web ingest package; ingesting a URL loads them then", async () => {
    const docs = join(dir, "docs");
    mkdirSync(docs);
    writeFileSync(join(docs, "kettles.md"), "# Kettles\n\nThe copper kettle in the lodge whistles at dawn.\n");
    const site = await startTestSite({
      "/lanterns.html": html("<h1>Lanterns</h1><p>The lantern shed opens at dusk.</p>"),
    });
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--import", "tsx", child, join(dir, "ferret.db"), docs, `${site.origin}/lanterns.html`],
        { cwd: join(here, "..") },
      );
      const [folder, page] = stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { added: number; packages: string[] });
      expect(folder?.added).toBe(1);
      expect(folder?.packages).not.toContain("undici");
      expect(folder?.packages).not.toContain("robots-parser");
      // The same probe sees them once a URL is ingested: the check above is not blind.
      expect(page?.added).toBe(1);
      expect(page?.packages).toContain("undici");
      expect(page?.packages).toContain("robots-parser");
    } finally {
      await site.close();
    }
  }, 60_000);
});
