import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { IngestSummary } from "../../src/ingest/ingest.js";
import type { SourceInfo } from "../../src/spec/source.js";
import { ACME, CLI_FIXTURES, ferret, ferretJson, fixtureFolder, tempDir } from "./run-cli.js";

const BAD = ["corrupt.pdf", "binary.txt", "empty.md", "invalid-utf8.txt"];

describe("ferret ingest examples/acme", () => {
  it("registers three sources with counts and the hr acl, and a second run changes nothing", async () => {
    const db = join(await tempDir(), "ferret.db");
    const first = await ferretJson<IngestSummary>(["ingest", ACME, "--tenant", "acme", "--db", db]);
    expect(first.sources).toEqual(["handbook", "hr_policies", "support_tickets"]);
    expect(first).toMatchObject({ updated: 0, unchanged: 0, removed: 0, failed: [], skipped: [] });
    expect(first.added).toBeGreaterThan(0);
    expect(first.chunks).toBeGreaterThanOrEqual(first.added);

    const sources = await ferretJson<SourceInfo[]>(["sources", "--db", db, "--as", "acme:owner:*"]);
    expect(sources.map((s) => s.name).sort()).toEqual(["handbook", "hr_policies", "support_tickets"]);
    for (const s of sources) {
      expect(s.tenant, s.name).toBe("acme");
      expect(s.documents, s.name).toBeGreaterThan(0);
      expect(s.chunks, s.name).toBeGreaterThanOrEqual(s.documents);
    }
    const byName = new Map(sources.map((s) => [s.name, s]));
    expect(byName.get("hr_policies")?.acl).toEqual(["hr"]);
    expect(byName.get("handbook")?.acl).toEqual([]);
    expect(byName.get("support_tickets")?.kind).toBe("table");
    expect(sources.reduce((n, s) => n + s.documents, 0)).toBe(first.added);

    const second = await ferretJson<IngestSummary>(["ingest", ACME, "--tenant", "acme", "--db", db]);
    expect(second).toMatchObject({ added: 0, updated: 0, removed: 0, chunks: 0, failed: [] });
    expect(second.unchanged).toBe(first.added);
    const after = await ferretJson<SourceInfo[]>(["sources", "--db", db, "--as", "acme:owner:*"]);
    expect(after).toEqual(sources);
  });

  it("shows a reader without the hr role only the sources it may read", async () => {
    const db = join(await tempDir(), "ferret.db");
    await ferretJson(["ingest", ACME, "--tenant", "acme", "--db", db]);
    const visible = await ferretJson<SourceInfo[]>(["sources", "--db", db, "--as", "acme:sam:support"]);
    expect(visible.map((s) => s.name).sort()).toEqual(["handbook", "support_tickets"]);
    const otherTenant = await ferretJson<SourceInfo[]>(["sources", "--db", db, "--as", "globex:sam:hr"]);
    expect(otherTenant).toEqual([]);
  });
});

describe("ferret ingest with bad input", () => {
  it("skips or reports each bad file by name, exits 0, and the good file is searchable", async () => {
    const dir = await tempDir();
    const folder = await fixtureFolder(dir, "mixed", [...BAD, "handbook.md"]);
    const db = join(dir, "ferret.db");
    const run = await ferret(["ingest", folder, "--db", db]);
    expect(run.code, run.stderr).toBe(0);
    const passages = await ferretJson<{ docId: string }[]>(["search", "magazine B net explosive weight", "--db", db]);
    expect(passages[0]?.docId).toBe("handbook.md");
    // The human summary names every bad file with its reason.
    expect(run.stdout).toMatch(/corrupt\.pdf: .*(PDF|pdf)/);
    expect(run.stdout).toMatch(/invalid-utf8\.txt: .*UTF-8/);
    expect(run.stdout).toMatch(/binary\.txt: .*binary/);
    expect(run.stdout).toMatch(/empty\.md: .*empty/);
  });

  it("gives each bad file a reason in the --json summary", async () => {
    const dir = await tempDir();
    const folder = await fixtureFolder(dir, "mixed", [...BAD, "handbook.md"]);
    const summary = await ferretJson<IngestSummary>(["ingest", folder, "--db", join(dir, "ferret.db")]);
    const reasons = new Map<string, string>([
      ...summary.failed.map((f) => [f.file, f.reason] as const),
      ...summary.skipped.map((f) => [f.file, f.reason] as const),
      ...summary.warnings.map((f) => [f.file, f.message] as const),
    ]);
    for (const file of BAD) expect(reasons.get(file), file).toMatch(/\w+/);
    expect(summary.failed.map((f) => f.file)).toContain("corrupt.pdf");
    expect(summary.skipped.map((f) => f.file).sort()).toEqual(["binary.txt", "empty.md"]);
  });

  it("exits non-zero under --strict when a file failed", async () => {
    const dir = await tempDir();
    const folder = await fixtureFolder(dir, "mixed", [...BAD, "handbook.md"]);
    const run = await ferret(["ingest", folder, "--strict", "--db", join(dir, "ferret.db")]);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain("corrupt.pdf");
  });

  it("exits non-zero when a folder holds only unusable files", async () => {
    const dir = await tempDir();
    const failing = await fixtureFolder(dir, "failing", ["corrupt.pdf", "binary.txt", "empty.md"]);
    const a = await ferret(["ingest", failing, "--db", join(dir, "a.db")]);
    expect(a.code).not.toBe(0);
    // Nothing could be ingested here either: both files are left out (binary, empty).
    const skipped = await fixtureFolder(dir, "skipped", ["binary.txt", "empty.md"]);
    const b = await ferret(["ingest", skipped, "--db", join(dir, "b.db")]);
    expect(b.code, b.stdout).not.toBe(0);
  });

  it("rejects a malformed sources.json with a non-zero exit naming the file", async () => {
    const db = join(await tempDir(), "ferret.db");
    const run = await ferret(["ingest", join(CLI_FIXTURES, "malformed-set"), "--db", db]);
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(run.stderr).toContain("sources.json");
    expect(run.stderr).toMatch(/invalid JSON/i);
    const sources = await ferretJson<SourceInfo[]>(["sources", "--db", db]);
    expect(sources).toEqual([]);
  });
});
