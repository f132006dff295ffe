import { mkdtempSync, rmSync } from "node:fs";
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
});
