import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFerret, type Ferret } from "../src/index.js";

const ACME = new URL("../examples/acme", import.meta.url).pathname;

describe("createFerret", () => {
  let ferret: Ferret | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await ferret?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("ingests an evaluation set for its tenant, and a caller naming nobody reads the store's only tenant", async () => {
    dir = mkdtempSync(join(tmpdir(), "ferret-lib-"));
    ferret = await createFerret({ db: join(dir, "ferret.db") });
    const summary = await ferret.ingest(ACME);
    expect(summary.added).toBeGreaterThan(0);
    const sources = await ferret.sources();
    expect(sources.map((s) => s.name).sort()).toEqual(["handbook", "hr_policies", "support_tickets"]);
    // The set's questions name tenant acme: a principal of another tenant sees nothing of it.
    expect(await ferret.sources({ principal: { tenant: "default", user: "x", roles: ["*"] } })).toEqual([]);
    const answer = await ferret.ask("Who leads the team that owns the Telemetry Gateway?");
    expect(answer.status).toBe("answered");
    expect(answer.text).toContain("Dana Okafor");
    expect(answer.model).toBe("offline");
  });

  it("passes ingest caps down to the loaders", async () => {
    dir = mkdtempSync(join(tmpdir(), "ferret-lib-"));
    ferret = await createFerret({ db: join(dir, "ferret.db") });
    const summary = await ferret.ingest(ACME, { limits: { maxFileBytes: 10 } });
    expect(summary.added).toBe(0);
    expect(summary.skipped.length).toBeGreaterThan(0);
    expect(summary.skipped.every((s) => /over the 10-byte limit \(maxFileBytes\)$/.test(s.reason))).toBe(true);
  });

  it("passes parse workers and limits through to ingest: a file over the parse heap fails alone", async () => {
    dir = mkdtempSync(join(tmpdir(), "ferret-lib-"));
    const docs = join(dir, "docs");
    mkdirSync(docs);
    writeFileSync(join(docs, "note.md"), "# Note\n\nThe blue cart carries the propellant.\n");
    writeFileSync(join(docs, "huge.txt"), "revenue grew in the third quarter\n".repeat(700_000));
    ferret = await createFerret({ db: join(dir, "ferret.db") });
    const summary = await ferret.ingest(docs, { workers: 1, limits: { parseHeapMb: 48 } });
    expect(summary.added).toBe(1);
    expect(summary.failed).toEqual([{ file: "huge.txt", reason: expect.stringContaining("48 MB parse worker heap") }]);
  });
});
