import { copyFile, mkdir, mkdtemp, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIXTURES } from "../../test/fixtures/ingest/fixtures.js";
import type { ChunkRecord } from "../spec/document.js";
import type { Principal } from "../spec/principal.js";
import type { StoreV1 } from "../spec/store.js";
import { createSqliteStore } from "../stores/sqlite/index.js";
import { ingestPath } from "./ingest.js";

const TENANT = "acme";
const OWNER: Principal = { tenant: TENANT, user: "t", roles: ["*"] };

let dir: string;
let set: string;
const stores: StoreV1[] = [];

async function openStore(name = "ferret.db"): Promise<StoreV1> {
  const store = await createSqliteStore({ path: join(dir, name) });
  stores.push(store);
  return store;
}

/** An evaluation-set folder: documents (md in subfolders, html, pdf, binary, empty), a CSV table, JSONL. */
async function makeSet(): Promise<void> {
  set = join(dir, "set");
  await mkdir(join(set, "docs", "guides"), { recursive: true });
  await writeFile(
    join(set, "sources.json"),
    JSON.stringify([
      { name: "docs", kind: "documents", path: "docs", description: "Guides." },
      { name: "parts", kind: "table", path: "parts.csv", description: "Parts.", acl: ["eng"] },
      { name: "history", kind: "jsonl", path: "passages.jsonl", description: "History." },
    ]),
  );
  for (const [from, to] of [
    ["handbook.md", "docs/guides/handbook.md"],
    ["de-wartung.md", "docs/de-wartung.md"],
    ["zh-test-procedure.md", "docs/zh.md"],
    ["page.html", "docs/page.html"],
    ["launch-checklist.pdf", "docs/launch-checklist.pdf"],
    ["corrupt.pdf", "docs/corrupt.pdf"],
    ["binary.txt", "docs/binary.txt"],
    ["empty.md", "docs/empty.md"],
    ["parts.csv", "parts.csv"],
    ["passages.jsonl", "passages.jsonl"],
  ]) {
    await copyFile(join(FIXTURES, from as string), join(set, to as string));
  }
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ferret-ingest-"));
  await makeSet();
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe("ingestPath", () => {
  it("ingests an evaluation set: documents, table rows, JSONL lines; skips and fails with reasons", async () => {
    const store = await openStore();
    const summary = await ingestPath({ store, path: set, tenant: TENANT });
    expect(summary.sources).toEqual(["docs", "parts", "history"]);
    expect(summary.added).toBe(5 + 4 + 2);
    expect(summary.failed).toEqual([{ file: "docs/corrupt.pdf", reason: "not a readable PDF (corrupt or truncated)" }]);
    expect(summary.skipped).toEqual([
      { file: "docs/binary.txt", reason: "binary file (contains NUL bytes)" },
      { file: "docs/empty.md", reason: "empty file" },
    ]);
    expect(summary.chunks).toBeGreaterThan(11);

    const hashes = await store.documentHashes(TENANT, "docs");
    expect([...hashes.keys()].sort()).toEqual([
      "docs/de-wartung.md",
      "docs/guides/handbook.md",
      "docs/launch-checklist.pdf",
      "docs/page.html",
      "docs/zh.md",
    ]);
    expect([...(await store.documentHashes(TENANT, "parts")).keys()]).toContain("parts.csv#P-200");
    expect([...(await store.documentHashes(TENANT, "history")).keys()].sort()).toEqual([
      "passages.jsonl#1",
      "passages.jsonl#2",
    ]);

    const doc = await store.getDocument("docs/guides/handbook.md", OWNER);
    expect(doc).toMatchObject({
      title: "Propellant Handling Guide",
      updatedAt: "2026-03-04",
      acl: ["engineering", "safety"],
      source: "docs",
    });
    const chunks = await store.getChunks(["docs/guides/handbook.md::0"], OWNER);
    expect(chunks[0]?.text).toBe(doc?.text.slice(chunks[0]?.start, chunks[0]?.end));

    const sources = await store.listSources(OWNER);
    expect(sources.find((s) => s.name === "parts")).toMatchObject({ kind: "table", acl: ["eng"], documents: 4 });
    const sql = await store.querySql("SELECT title FROM parts WHERE count >= 12 ORDER BY count", OWNER);
    expect(sql.rows.map((r) => r.title)).toEqual(["Fin set", "Igniter", "Bolt kit"]);
  });

  it("skips everything on a second run, updates an edited file, prunes a deleted one", async () => {
    const store = await openStore();
    await ingestPath({ store, path: set, tenant: TENANT });
    const before = await store.documentHashes(TENANT, "docs");

    const again = await ingestPath({ store, path: set, tenant: TENANT, prune: true });
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 11, removed: 0, chunks: 0 });
    expect(await store.documentHashes(TENANT, "docs")).toEqual(before);

    await writeFile(
      join(set, "docs", "guides", "handbook.md"),
      "# Propellant Handling Guide\n\nRewritten: magazine C now.\n",
    );
    const edited = await ingestPath({ store, path: set, tenant: TENANT });
    expect(edited).toMatchObject({ added: 0, updated: 1, unchanged: 10, removed: 0 });
    expect((await store.getDocument("docs/guides/handbook.md", OWNER))?.text).toContain("magazine C");

    await unlink(join(set, "docs", "de-wartung.md"));
    const kept = await ingestPath({ store, path: set, tenant: TENANT });
    expect(kept.removed).toBe(0);
    expect((await store.documentHashes(TENANT, "docs")).has("docs/de-wartung.md")).toBe(true);
    const pruned = await ingestPath({ store, path: set, tenant: TENANT, prune: true });
    expect(pruned).toMatchObject({ removed: 1, unchanged: 10 });
    expect((await store.documentHashes(TENANT, "docs")).has("docs/de-wartung.md")).toBe(false);
  });

  it("keeps the stored documents of a file that fails to load, even with prune", async () => {
    const store = await openStore();
    await ingestPath({ store, path: set, tenant: TENANT });
    await copyFile(join(FIXTURES, "malformed.jsonl"), join(set, "passages.jsonl"));
    const summary = await ingestPath({ store, path: set, tenant: TENANT, prune: true });
    expect(summary.failed.map((f) => f.file)).toContain("passages.jsonl");
    expect(summary.failed.find((f) => f.file === "passages.jsonl")?.reason).toMatch(/line 2/);
    expect(summary.removed).toBe(0);
    expect((await store.documentHashes(TENANT, "history")).size).toBe(2);
  });

  it("re-writes every document of a source whose ACL changed", async () => {
    const store = await openStore();
    await ingestPath({ store, path: set, tenant: TENANT, source: "history" });
    const json = (await import("node:fs/promises")).readFile;
    const sources = JSON.parse(await json(join(set, "sources.json"), "utf8")) as { name: string; acl?: string[] }[];
    (sources[2] as { acl?: string[] }).acl = ["historians"];
    await writeFile(join(set, "sources.json"), JSON.stringify(sources));
    const summary = await ingestPath({ store, path: set, tenant: TENANT, source: "history" });
    expect(summary).toMatchObject({ sources: ["history"], updated: 2, unchanged: 0 });
  });

  it("converges to the clean-run state after a crash part-way through", async () => {
    const clean = await openStore("clean.db");
    await ingestPath({ store: clean, path: set, tenant: TENANT, batchSize: 2 });

    const real = await openStore("crashed.db");
    let writes = 0;
    const crashing = new Proxy(real, {
      get(target, prop) {
        if (prop === "writeDocuments") {
          return async (batch: Parameters<StoreV1["writeDocuments"]>[0]) => {
            if (++writes === 2) throw new Error("power cut");
            return target.writeDocuments(batch);
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    await expect(ingestPath({ store: crashing, path: set, tenant: TENANT, batchSize: 2 })).rejects.toThrow("power cut");
    expect((await real.documentHashes(TENANT, "docs")).size).toBe(2);

    const rerun = await ingestPath({ store: real, path: set, tenant: TENANT, batchSize: 2, prune: true });
    expect(rerun.unchanged).toBe(2);
    expect(rerun.added).toBe(9);
    for (const source of ["docs", "parts", "history"]) {
      expect(await real.documentHashes(TENANT, source)).toEqual(await clean.documentHashes(TENANT, source));
    }
    const ids = ["docs/zh.md::0", "docs/zh.md::1", "parts.csv#P-100::0"];
    expect(await real.getChunks(ids, OWNER)).toEqual(await clean.getChunks(ids, OWNER));
  });

  it("calls embed with each batch's chunks before writing, and reports progress", async () => {
    const store = await openStore();
    const embedded: ChunkRecord[] = [];
    const phases = new Set<string>();
    const summary = await ingestPath({
      store,
      path: set,
      tenant: TENANT,
      source: "docs",
      embed: async (chunks) => {
        embedded.push(...chunks);
      },
      onProgress: (e) => phases.add(e.phase),
    });
    expect(embedded).toHaveLength(summary.chunks);
    expect(new Set(embedded.map((c) => c.docId)).size).toBe(summary.added);
    expect([...phases].sort()).toEqual(["load", "write"]);
  });

  it("ingests a plain folder with ids relative to it and a name from the folder", async () => {
    const store = await openStore();
    const summary = await ingestPath({ store, path: join(set, "docs", "guides"), tenant: TENANT, acl: ["eng"] });
    expect(summary.sources).toEqual(["guides"]);
    expect([...(await store.documentHashes(TENANT, "guides")).keys()]).toEqual(["handbook.md"]);
    const single = await ingestPath({ store, path: join(set, "parts.csv"), tenant: TENANT, source: "inventory" });
    expect(single.added).toBe(4);
    expect((await store.documentHashes(TENANT, "inventory")).has("parts.csv#007")).toBe(true);
  });
});
