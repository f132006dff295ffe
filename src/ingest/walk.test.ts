import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeSymlinkCorpus } from "../../test/fixtures/hostile/paths.js";
import { listFiles } from "./walk.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ferret-walk-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("listFiles with symbolic links", () => {
  it("follows links inside the root once, reports links that leave it, loop or duplicate, and ends", async () => {
    const root = join(dir, "root");
    const corpus = await writeSymlinkCorpus({ root, outside: join(dir, "outside") });
    const { files, skipped } = await listFiles({ root });
    const real = await realpath(root);
    expect(files.map((f) => f.relPath)).toEqual(Object.keys(corpus.ingested).sort());
    // Files reached through a link are read from their real path, inside the root.
    expect(files.find((f) => f.relPath === "note-link.md")?.absPath).toBe(join(real, ".private", "note.md"));
    expect(files.every((f) => f.absPath.startsWith(`${real}/`))).toBe(true);
    expect(skipped.map((s) => s.relPath).sort()).toEqual(Object.keys(corpus.skipped).sort());
    for (const { relPath, reason } of skipped) expect(reason).toMatch(corpus.skipped[relPath] as RegExp);
  });

  it("ends on a cycle of folder links inside the root", async () => {
    const root = join(dir, "cycle");
    await mkdir(join(root, ".a"), { recursive: true });
    await mkdir(join(root, ".b"), { recursive: true });
    await writeFile(join(root, ".a", "a.md"), "a");
    await writeFile(join(root, ".b", "b.md"), "b");
    await symlink(join(root, ".b"), join(root, ".a", "to-b"));
    await symlink(join(root, ".a"), join(root, ".b", "to-a"));
    await symlink(".a", join(root, "start"));
    const { files, skipped } = await listFiles({ root });
    expect(files.map((f) => f.relPath)).toEqual(["start/a.md", "start/to-b/b.md"]);
    expect(skipped).toEqual([
      {
        relPath: "start/to-b/to-a",
        reason: 'symbolic link to the folder ".a", already walked (a loop or a duplicate)',
      },
    ]);
  });

  it.skipIf(process.platform === "win32")("reports a named pipe instead of opening it", async () => {
    const root = join(dir, "pipes");
    await mkdir(root);
    await writeFile(join(root, "a.md"), "a");
    execFileSync("mkfifo", [join(root, "queue.txt")]);
    const { files, skipped } = await listFiles({ root });
    expect(files.map((f) => f.relPath)).toEqual(["a.md"]);
    expect(skipped).toEqual([{ relPath: "queue.txt", reason: "not a regular file (a device, pipe or socket)" }]);
  });
});
