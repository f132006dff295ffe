import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidInputError } from "../spec/errors.js";
import { planSources, sourceName } from "./sources.js";
import { listFiles } from "./walk.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ferret-sources-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("sourceName", () => {
  it("makes lower_snake_case names", () => {
    expect(sourceName("Product Docs")).toBe("product_docs");
    expect(sourceName("apiDocs-v2")).toBe("api_docs_v2");
    expect(sourceName("2026 notes")).toBe("s_2026_notes");
    expect(sourceName("Übersicht")).toBe("ubersicht");
  });
});

describe("planSources", () => {
  it("reads an evaluation set's sources.json", async () => {
    await writeFile(
      join(dir, "sources.json"),
      JSON.stringify([
        { name: "docs", kind: "documents", path: "docs", description: "Docs." },
        { name: "tickets", kind: "table", path: "tickets.csv", description: "T.", acl: ["support"] },
      ]),
    );
    const plans = await planSources({ path: dir });
    expect(plans.map((p) => [p.name, p.kind, p.acl, p.path, p.idRoot])).toEqual([
      ["docs", "documents", [], "docs", dir],
      ["tickets", "table", ["support"], "tickets.csv", dir],
    ]);
    expect((await planSources({ path: dir, source: "tickets" })).map((p) => p.name)).toEqual(["tickets"]);
    await expect(planSources({ path: dir, source: "nope" })).rejects.toThrow(/no source "nope"/);
  });

  it("names file, line and field of a bad sources.json entry", async () => {
    await writeFile(
      join(dir, "sources.json"),
      '[\n  {"name": "ok", "kind": "documents", "path": "a"},\n  {"name": "Bad Name", "kind": "documents", "path": "b"}\n]',
    );
    const error = await planSources({ path: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).context).toMatchObject({ file: "sources.json", line: 3, field: "name" });
  });

  it("rejects invalid JSON, unknown kinds and paths leaving the set", async () => {
    await writeFile(join(dir, "sources.json"), '[\n  {"name": "a",\n}');
    await expect(planSources({ path: dir })).rejects.toThrow(/sources\.json, line \d: invalid JSON/);
    await writeFile(join(dir, "sources.json"), '[{"name": "a", "kind": "pdf", "path": "a"}]');
    await expect(planSources({ path: dir })).rejects.toThrow(/field "kind"/);
    await writeFile(join(dir, "sources.json"), '[{"name": "a", "kind": "documents", "path": "../x"}]');
    await expect(planSources({ path: dir })).rejects.toThrow(/inside the set folder/);
  });

  it("refuses source paths with .. anywhere, absolute paths, and folders that are links out of the set", async () => {
    const set = join(dir, "set");
    await mkdir(join(set, "docs"), { recursive: true });
    await mkdir(join(dir, "elsewhere"));
    const entry = (path: string) => JSON.stringify([{ name: "docs", kind: "documents", path }]);
    for (const path of [
      "../elsewhere",
      "docs/../../elsewhere",
      "docs/../docs",
      "/etc",
      "C:\\Windows",
      "..\\elsewhere",
    ]) {
      await writeFile(join(set, "sources.json"), entry(path));
      const error = await planSources({ path: set }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).context).toMatchObject({ file: "sources.json", field: "path" });
      expect((error as Error).message).toContain(
        `must stay inside the set folder (a relative path without ".."), got "${path}"`,
      );
    }
    await symlink(join(dir, "elsewhere"), join(set, "linked"));
    await writeFile(join(set, "sources.json"), entry("linked"));
    const error = await planSources({ path: set }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as Error).message).toMatch(
      /^sources\.json, line 1, source 1, field "path": must stay inside the set folder, but "linked" is a symbolic link to .*elsewhere$/,
    );
    await symlink("/etc/passwd", join(set, "passwd.txt"));
    await writeFile(join(set, "sources.json"), entry("passwd.txt"));
    await expect(planSources({ path: set })).rejects.toThrow(/"passwd\.txt" is a symbolic link to \/etc\/passwd$/);
    // A link that stays inside the set is fine.
    await symlink(join(set, "docs"), join(set, "docs-link"));
    await writeFile(join(set, "sources.json"), entry("docs-link"));
    expect((await planSources({ path: set }))[0]?.path).toBe("docs-link");
  });

  it("treats a plain folder as one documents source and a csv file as a table", async () => {
    const folder = join(dir, "Team Notes");
    await mkdir(folder);
    await writeFile(join(dir, "orders.csv"), "id,x\n1,2\n");
    expect(await planSources({ path: folder })).toMatchObject([
      { name: "team_notes", kind: "documents", idRoot: folder },
    ]);
    expect(await planSources({ path: folder, source: "notes", acl: ["ops"] })).toMatchObject([
      { name: "notes", acl: ["ops"] },
    ]);
    expect(await planSources({ path: join(dir, "orders.csv") })).toMatchObject([
      { name: "orders", kind: "table", idRoot: dir },
    ]);
    await expect(planSources({ path: join(dir, "missing") })).rejects.toThrow(/no such file or folder/);
  });
});

describe("listFiles", () => {
  it("lists nested files sorted, without hidden entries or node_modules", async () => {
    await mkdir(join(dir, "b", "c"), { recursive: true });
    await mkdir(join(dir, ".git"));
    await mkdir(join(dir, "node_modules"));
    for (const f of ["b/c/z.md", "a.md", ".hidden.md", ".git/x", "node_modules/y.md", "b/k.txt"])
      await writeFile(join(dir, f), "x");
    const { files, skipped } = await listFiles({ root: dir });
    expect(files).toEqual(["a.md", "b/c/z.md", "b/k.txt"].map((f) => ({ relPath: f, absPath: join(dir, f) })));
    expect(skipped).toEqual([]);
  });
});
