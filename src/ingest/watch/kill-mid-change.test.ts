import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readDocument } from "../../library/documents.js";
import type { StoreV1 } from "../../spec/store.js";
import { createSqliteStore } from "../../stores/sqlite/index.js";
import { ingestPath } from "../ingest.js";

const CHILD = fileURLToPath(new URL("./__fixtures__/ingest-child.ts", import.meta.url));
const FILES = 150;
const OWNER = { tenant: "default", user: "t", roles: ["*"] };

let dir: string;
let docs: string;

function writeVersion(version: string) {
  for (let i = 0; i < FILES; i++) {
    const paragraphs = Array.from(
      { length: 12 },
      (_, p) => `Paragraph ${p} of shelf ${i}, ${version}: the Marrowfield archive keeps ledgers of barley and rope.`,
    );
    writeFileSync(join(docs, `shelf-${i}.md`), `# Shelf ${i}\n\n${paragraphs.join("\n\n")}\n`);
  }
}

/** Runs the child ingest and kills it (SIGKILL) once it has written its first document. */
function ingestAndKill(db: string): Promise<{ finished: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, db, docs], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let stderr = "";
    child.stdout.on("data", (data: Buffer) => {
      out += data.toString();
      if (out.includes("written")) child.kill("SIGKILL");
    });
    child.stderr.on("data", (data: Buffer) => {
      stderr += data.toString();
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL" || code === 0) resolve({ finished: out.includes("finished") });
      else reject(new Error(`child exited ${code}: ${stderr}`));
    });
  });
}

/** Every stored document is whole: its chunks are slices of its own text, in order, with none missing. */
async function checkConsistent(store: StoreV1): Promise<{ v1: number; v2: number }> {
  const counts = { v1: 0, v2: 0 };
  for (const id of (await store.documentHashes("default", "notes")).keys()) {
    const read = await readDocument({ store, docId: id, source: "notes", principal: OWNER });
    expect(read, id).toBeDefined();
    const { document, chunks } = read!;
    expect(chunks.length, id).toBeGreaterThan(0);
    for (const chunk of chunks) {
      const start = chunk.start as number;
      const end = chunk.end as number;
      expect(document.text.slice(start, end), id).toBe(chunk.text);
    }
    const version = document.text.includes("version two") ? "v2" : "v1";
    for (const chunk of chunks)
      if (/version (one|two)/.test(chunk.text))
        expect(chunk.text).toContain(version === "v2" ? "version two" : "version one");
    counts[version]++;
  }
  return counts;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ferret-kill-"));
  docs = join(dir, "docs");
  mkdirSync(docs);
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("a change interrupted by a killed process", () => {
  it("leaves every document whole, and the next run converges", async () => {
    const db = join(dir, "t.db");
    writeVersion("version one");
    let store = await createSqliteStore({ path: db });
    await ingestPath({ store, path: docs, source: "notes", prune: true, workers: 0 });
    await store.close();

    writeVersion("version two");
    await ingestAndKill(db);

    store = await createSqliteStore({ path: db });
    try {
      const after = await checkConsistent(store);
      expect(after.v1 + after.v2).toBe(FILES);
      expect(after.v2).toBeGreaterThan(0);

      const resumed = await ingestPath({ store, path: docs, source: "notes", prune: true, workers: 0 });
      expect(resumed.updated).toBe(after.v1);
      expect(await checkConsistent(store)).toEqual({ v1: 0, v2: FILES });
      const again = await ingestPath({ store, path: docs, source: "notes", prune: true, workers: 0 });
      expect(again).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: FILES });
    } finally {
      await store.close();
    }
  }, 120_000);
});
