import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { localOwnerOf } from "../src/cli/principal.js";
import { createFerret, type Ferret } from "../src/index.js";
import { evalSetTenant } from "../src/ingest/set-tenant.js";
import { LOCAL_OWNER } from "../src/spec/principal.js";

const ACME = new URL("../examples/acme", import.meta.url).pathname;

describe("createFerret", () => {
  let ferret: Ferret | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await ferret?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("a library naming no principal acts as the documented default, the owner of the default tenant, and sniffs no tenant", async () => {
    dir = mkdtempSync(join(tmpdir(), "ferret-lib-"));
    ferret = await createFerret({ db: join(dir, "ferret.db") });
    expect(await ferret.defaultPrincipal()).toEqual(LOCAL_OWNER);
    // Ingest does not read the set's questions for a tenant: that is the caller's decision.
    await ferret.ingest(ACME);
    expect((await ferret.sources()).map((s) => s.name).sort()).toEqual(["handbook", "hr_policies", "support_tickets"]);
    expect(await ferret.sources({ principal: { tenant: "acme", user: "x", roles: ["*"] } })).toEqual([]);
    // A reader without roles in the same tenant is no owner: it sees no restricted source.
    const reader = { tenant: LOCAL_OWNER.tenant, user: "r", roles: [] };
    expect((await ferret.sources({ principal: reader })).map((s) => s.name)).not.toContain("hr_policies");
  });

  it("the caller decides the policy: the eval-set tenant and the CLI's owner of the store's only tenant", async () => {
    dir = mkdtempSync(join(tmpdir(), "ferret-lib-"));
    ferret = await createFerret({ db: join(dir, "ferret.db"), principal: localOwnerOf });
    const tenant = evalSetTenant(ACME);
    expect(tenant).toBe("acme");
    const summary = await ferret.ingest(ACME, { tenant });
    expect(summary.added).toBeGreaterThan(0);
    expect(await ferret.defaultPrincipal()).toEqual({ ...LOCAL_OWNER, tenant: "acme" });
    expect((await ferret.sources()).map((s) => s.name).sort()).toEqual(["handbook", "hr_policies", "support_tickets"]);
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
