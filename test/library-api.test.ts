import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFerret, type Ferret, type Principal } from "../src/index.js";
import { hostileUpload } from "./fixtures/hostile/uploads.js";

const ACME = new URL("../examples/acme", import.meta.url).pathname;
const eng: Principal = { tenant: "acme", user: "sam", roles: ["eng"] };
const hr: Principal = { tenant: "acme", user: "hana", roles: ["hr"] };
const other: Principal = { tenant: "globex", user: "gil", roles: ["*"] };
const owner: Principal = { tenant: "acme", user: "root", roles: ["*"] };

describe("library API for shells", () => {
  let dir: string;
  let ferret: Ferret;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "ferret-libapi-"));
    ferret = await createFerret({ db: join(dir, "ferret.db"), principal: owner });
    await ferret.ingest(ACME);
  });
  afterAll(async () => {
    await ferret.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keys: the secret is shown once, stored hashed, verified until revoked", async () => {
    const created = await ferret.keys.create({ tenant: "acme", user: "sam", roles: ["eng", "eng"], dailyUsd: 2 });
    expect(created.key).toMatch(/^fk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(created.info).toMatchObject({ tenant: "acme", user: "sam", roles: ["eng"], dailyUsd: 2 });
    expect(JSON.stringify(await ferret.keys.list())).not.toContain(created.key.slice(16));
    expect(await ferret.keys.verify(created.key)).toMatchObject({ id: created.info.id, user: "sam" });
    expect(await ferret.keys.verify(`${created.key.slice(0, -1)}x`)).toBeUndefined();
    expect(await ferret.keys.verify("Bearer nonsense")).toBeUndefined();
    expect(await ferret.keys.revoke(created.info.id)).toBe(true);
    expect(await ferret.keys.verify(created.key)).toBeUndefined();
    await expect(ferret.keys.create({ tenant: "a b", user: "u", roles: [] })).rejects.toMatchObject({
      name: "InvalidInputError",
    });
  });

  it("spend: totals per tenant and key for the UTC day", async () => {
    const at = Date.UTC(2026, 2, 1, 23, 59);
    await ferret.spend.add({ tenant: "acme", keyId: "k1", usd: 1.5, at });
    await ferret.spend.add({ tenant: "acme", keyId: "k2", usd: 0.5, at });
    expect(await ferret.spend.spent({ tenant: "acme", at })).toBe(2);
    expect(await ferret.spend.spent({ tenant: "acme", keyId: "k1", at })).toBe(1.5);
    // 00:00 UTC the next day starts again.
    expect(await ferret.spend.spent({ tenant: "acme", at: at + 2 * 60_000 })).toBe(0);
  });

  it("runs and turns: each principal sees their own", async () => {
    const a = await ferret.ask("Who leads the team that owns the Telemetry Gateway?", {
      principal: eng,
      sessionId: "s1",
    });
    await ferret.ask("What is the parental leave policy?", { principal: hr });
    const mine = await ferret.runs({ principal: eng });
    expect(mine.map((r) => r.runId)).toEqual([a.runId]);
    expect(mine[0]).toMatchObject({ user: "sam", status: a.status, stopReason: a.stopReason });
    expect((await ferret.runs({ principal: owner })).length).toBeGreaterThanOrEqual(2);
    expect(await ferret.runs({ principal: other })).toEqual([]);
    expect((await ferret.turns("s1", { principal: eng })).map((t) => t.role)).toEqual(["user", "assistant"]);
    expect(await ferret.turns("s1", { principal: hr })).toEqual([]);
  });

  it("toolbox: the principal's tools, and nothing beyond their rights", async () => {
    const box = await ferret.toolbox({ principal: eng });
    expect(box.sources.map((s) => s.name).sort()).toEqual(["handbook", "support_tickets"]);
    expect(box.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["search", "list_sources", "run_sql"]));
    const denied = await box.call("search", { query: "salary bands", corpus: "hr_policies" });
    expect(denied.status).toBe("error");
    const all = await box.call("search", { query: "salary bands engineering", k: 20 });
    expect((all.passages ?? []).every((p) => p.source !== "hr_policies")).toBe(true);
    const hrBox = await ferret.toolbox({ principal: hr });
    const found = await hrBox.call("search", { query: "salary bands", corpus: "hr_policies" });
    expect(found.passages?.some((p) => p.source === "hr_policies")).toBe(true);
  });

  it("upload: reports each bad file by name and ingests the rest; names never leave the upload", async () => {
    const { files, expected } = hostileUpload();
    const summary = await ferret.upload(files, { source: "uploads", principal: eng, acl: ["eng"] });
    expect(summary.added).toBe(expected.added.length);
    expect(summary.failed.map((f) => f.file)).toEqual(expected.failed);
    expect(summary.skipped.map((f) => f.file)).toEqual(expected.skipped);
    const listed = await ferret.documents("uploads", { principal: eng });
    expect(listed?.documents.map((d) => d.id)).toEqual(expected.added);
    const hits = await ferret.search("Druckprüfung Tanks", { principal: eng, sources: ["uploads"] });
    expect(hits[0]?.docId).toBe("de/prüfung.md");
    // The new source is restricted as asked, and its recorded path is no machine path.
    const source = (await ferret.sources({ principal: eng })).find((s) => s.name === "uploads");
    expect(source).toMatchObject({ acl: ["eng"], path: "(uploaded)" });
    expect(await ferret.documents("uploads", { principal: hr })).toBeUndefined();
  });

  it("upload: a source the principal cannot read is refused, and keeps its ACL", async () => {
    const file = { name: "leak.md", data: new TextEncoder().encode("# Leak\n\nopen this source\n") };
    await expect(ferret.upload([file], { source: "hr_policies", principal: eng, acl: [] })).rejects.toMatchObject({
      name: "AccessDeniedError",
    });
    // An upload by a reader keeps the existing ACL whatever the request says.
    await ferret.upload([file], { source: "hr_policies", principal: hr, acl: [] });
    const hrSource = (await ferret.sources({ principal: hr })).find((s) => s.name === "hr_policies");
    expect(hrSource?.acl).toEqual(["hr"]);
    expect(hrSource?.path).toBe("hr_policies");
    expect((await ferret.sources({ principal: eng })).map((s) => s.name)).not.toContain("hr_policies");
    await expect(ferret.upload([file], { source: "support_tickets", principal: owner })).rejects.toMatchObject({
      name: "InvalidInputError",
    });
  });

  it("document, documents and removeDocument follow the principal's rights", async () => {
    const doc = await ferret.document("hr_policies/salary-bands.md", { source: "hr_policies", principal: hr });
    expect(doc?.chunks.length).toBeGreaterThan(0);
    for (const chunk of doc?.chunks ?? []) expect(doc?.document.text.slice(chunk.start, chunk.end)).toBe(chunk.text);
    expect(await ferret.document("hr_policies/salary-bands.md", { source: "hr_policies", principal: eng })).toBe(
      undefined,
    );
    expect(await ferret.removeDocument("hr_policies/salary-bands.md", { source: "hr_policies", principal: eng })).toBe(
      false,
    );
    expect(
      await ferret.document("hr_policies/salary-bands.md", { source: "hr_policies", principal: hr }),
    ).toBeDefined();
    const page = await ferret.documents("handbook", { principal: eng, limit: 3 });
    expect(page?.documents).toHaveLength(3);
    const rest = await ferret.documents("handbook", { principal: eng, after: page?.next });
    expect(rest?.next).toBeUndefined();
    const ids = [...(page?.documents ?? []), ...(rest?.documents ?? [])].map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(await ferret.removeDocument("launch-window.md", { source: "uploads", principal: eng })).toBe(true);
    expect(await ferret.search("Zephyr launch window", { principal: eng, sources: ["uploads"] })).toEqual([]);
  });
});
