import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StoreV1 } from "../../spec/store.js";
import { createSqliteStore } from "../../stores/sqlite/index.js";
import { type IngestSummary, ingestPath } from "../ingest.js";
import { type PathWatcher, watchPath } from "./watch-path.js";

let dir: string;
let docs: string;
let store: StoreV1;
let watcher: PathWatcher | undefined;
let runs: { summary: IngestSummary; changed: string[] }[];
let waiting: { until: (s: IngestSummary) => boolean; resolve: (s: IngestSummary) => void }[];

const ingest = () => ingestPath({ store, path: docs, source: "notes", prune: true, workers: 0 });

/** Resolves with the first run after now whose summary satisfies `until` (the test's own timeout bounds it). */
function nextRun(until: (s: IngestSummary) => boolean): Promise<IngestSummary> {
  return new Promise((resolve) => waiting.push({ until, resolve }));
}

async function ids(): Promise<string[]> {
  return [...(await store.documentHashes("default", "notes")).keys()].sort();
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "ferret-watch-"));
  docs = join(dir, "docs");
  mkdirSync(docs);
  writeFileSync(join(docs, "kettles.md"), "# Kettles\n\nCopper kettles from Brindlewick hum before they boil.\n");
  store = await createSqliteStore({ path: join(dir, "t.db") });
  await ingest();
  runs = [];
  waiting = [];
  watcher = watchPath({
    path: docs,
    ingest,
    debounceMs: 100,
    onIngest: (summary, changed) => {
      runs.push({ summary, changed });
      waiting = waiting.filter((w) => {
        if (!w.until(summary)) return true;
        w.resolve(summary);
        return false;
      });
    },
  });
  await watcher.ready;
});

afterEach(async () => {
  await watcher?.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("watchPath", () => {
  it("ingests a created file", async () => {
    const done = nextRun((s) => s.added === 1);
    writeFileSync(join(docs, "teapots.md"), "# Teapots\n\nGlazed teapots from Brindlewick pour without dripping.\n");
    await done;
    expect(await ids()).toEqual(["kettles.md", "teapots.md"]);
  });

  it("re-ingests a changed file", async () => {
    const done = nextRun((s) => s.updated === 1);
    writeFileSync(join(docs, "kettles.md"), "# Kettles\n\nCopper kettles from Brindlewick whistle when they boil.\n");
    await done;
    const doc = await store.getDocument("kettles.md", { tenant: "default", user: "t", roles: ["*"] });
    expect(doc?.text).toContain("whistle");
  });

  it("removes a deleted file", async () => {
    const done = nextRun((s) => s.removed === 1);
    unlinkSync(join(docs, "kettles.md"));
    await done;
    expect(await ids()).toEqual([]);
  });

  it("follows a rename: the new name in, the old name out", async () => {
    const done = nextRun(() => true);
    renameSync(join(docs, "kettles.md"), join(docs, "copper-kettles.md"));
    await done;
    // A rename may arrive as two bursts (unlink, then add); wait until the store has caught up with both.
    while ((await ids()).join() !== "copper-kettles.md") await nextRun(() => true);
    expect(await ids()).toEqual(["copper-kettles.md"]);
  });

  it("survives an editor's atomic save (write a hidden temp file, rename it over the original)", async () => {
    const done = nextRun((s) => s.updated === 1);
    const temp = join(docs, ".kettles.md.swp");
    writeFileSync(temp, "# Kettles\n\nCopper kettles from Brindlewick sing softly when they boil.\n");
    renameSync(temp, join(docs, "kettles.md"));
    await done;
    expect(await ids()).toEqual(["kettles.md"]);
    const doc = await store.getDocument("kettles.md", { tenant: "default", user: "t", roles: ["*"] });
    expect(doc?.text).toContain("sing softly");
  });

  it("gathers a burst of changes into few runs", async () => {
    const done = nextRun((s) => s.added + s.unchanged >= 21);
    for (let i = 0; i < 20; i++)
      writeFileSync(join(docs, `cup-${i}.md`), `# Cup ${i}\n\nCup number ${i} of the set.\n`);
    await done;
    await watcher?.idle();
    expect((await ids()).length).toBe(21);
    // Twenty files written in a loop: far fewer runs than files.
    expect(runs.length).toBeLessThan(20);
  });
});
