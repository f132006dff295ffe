import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIXTURES } from "../../test/fixtures/ingest/fixtures.js";
import { prose } from "../../test/fixtures/text/prose.js";
import type { ChunkRecord } from "../spec/document.js";
import type { StoreV1 } from "../spec/store.js";
import { createSqliteStore } from "../stores/sqlite/index.js";
import { type IngestSummary, ingestPath } from "./ingest.js";

/** Ingest with parse workers: the same result as in process, and a file over a parse limit fails alone. */

const TENANT = "acme";
let dir: string;
const stores: StoreV1[] = [];

async function openStore(name: string): Promise<StoreV1> {
  const store = await createSqliteStore({ path: join(dir, name) });
  stores.push(store);
  return store;
}

async function folder(files: [string, string][], texts: [string, string][] = []): Promise<string> {
  const root = join(dir, "docs");
  await mkdir(join(root, "sub"), { recursive: true });
  for (const [from, to] of files) await copyFile(join(FIXTURES, from), join(root, to));
  for (const [name, text] of texts) await writeFile(join(root, name), text);
  return root;
}

async function ingest(path: string, store: StoreV1, workers: number, extra: object = {}) {
  const embedded: ChunkRecord[] = [];
  const summary = await ingestPath({
    store,
    path,
    tenant: TENANT,
    source: "docs",
    workers,
    embed: async (chunks) => {
      embedded.push(...chunks);
    },
    ...extra,
  });
  return { summary: { ...summary, ms: 0 } as IngestSummary, embedded };
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ferret-ingest-pool-"));
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe("ingest with parse workers", () => {
  it("writes the same documents, chunks and entities, in the same order, as parsing in process", async () => {
    const path = await folder(
      [
        ["handbook.md", "handbook.md"],
        ["ja-launch-day.md", "sub/ja.md"],
        ["launch-checklist.pdf", "sub/checklist.pdf"],
        ["page.html", "page.html"],
        ["corrupt.pdf", "corrupt.pdf"],
        ["binary.txt", "binary.txt"],
        ["empty.md", "empty.md"],
        ["passages.jsonl", "passages.jsonl"],
      ],
      [["report.md", prose({ seed: 11, chars: 60_000, shape: "mixed" })]],
    );
    const inProcess = await ingest(path, await openStore("a.db"), 0);
    const pooled = await ingest(path, await openStore("b.db"), 2);
    expect(pooled.summary).toEqual(inProcess.summary);
    expect(pooled.embedded).toEqual(inProcess.embedded);
    expect(inProcess.summary.failed.map((f) => f.file)).toEqual(["corrupt.pdf"]);
    expect(inProcess.summary.added).toBeGreaterThanOrEqual(6);

    // Again: nothing changed, so the workers chunk nothing and report every document unchanged.
    const again = await ingest(path, stores[1] as StoreV1, 2);
    expect(again.embedded).toEqual([]);
    expect(again.summary.unchanged).toBe(inProcess.summary.added);
  });

  it("fails a file that outgrows the parse worker heap, keeps its stored documents, ingests the rest", async () => {
    const path = await folder([["handbook.md", "handbook.md"]], [["big.txt", "small at first\n"]]);
    const store = await openStore("c.db");
    await ingest(path, store, 2);
    await writeFile(join(path, "big.txt"), "Revenue grew in the third quarter.\n".repeat(700_000));
    await writeFile(join(path, "late.md"), "# Late\n\nAdded after the first ingest.\n");
    const { summary } = await ingest(path, store, 2, { prune: true, limits: { parseHeapMb: 64 } });
    expect(summary.failed).toHaveLength(1);
    expect(summary.failed[0]?.file).toBe("big.txt");
    expect(summary.failed[0]?.reason).toContain("64 MB parse worker heap (limits.parseHeapMb)");
    expect(summary.added).toBe(1);
    expect(summary.unchanged).toBe(1);
    expect([...(await store.documentHashes(TENANT, "docs")).keys()].sort()).toEqual([
      "big.txt",
      "handbook.md",
      "late.md",
    ]);
  });

  it("writes large documents in transactions of at most `batchChars` characters of chunk text", async () => {
    const texts: [string, string][] = [];
    for (let i = 0; i < 5; i++)
      texts.push([`part-${i}.md`, prose({ seed: 20 + i, chars: 100_000, shape: "markdown" })]);
    const path = await folder([], texts);
    const batches: number[] = [];
    const summary = await ingestPath({
      store: await openStore("d.db"),
      path,
      tenant: TENANT,
      workers: 0,
      batchChars: 150_000,
      embed: async (chunks) => {
        batches.push(chunks.reduce((n, c) => n + c.text.length, 0));
      },
    });
    expect(summary.added).toBe(5);
    // A batch closes once it reaches the limit: at most one document (~100,000 characters) past it.
    expect(batches).toHaveLength(3);
    for (const chars of batches) expect(chars).toBeLessThan(150_000 + 110_000);
  });
});
