import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createSqliteStore } from "./index.js";

const here = dirname(fileURLToPath(import.meta.url));
const writer = join(here, "__fixtures__", "crash-writer.ts");
const require = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), "ferret-crash-"));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the writer and resolves once it has committed `batches` batches. */
function startWriter(path: string, batches: number, firstVersion: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", writer, path, String(firstVersion)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let seen = 0;
    let stderr = "";
    child.stderr?.on("data", (data) => {
      stderr += String(data);
    });
    child.stdout?.on("data", (data: Buffer) => {
      seen += String(data)
        .split("\n")
        .filter((line) => line.startsWith("committed")).length;
      if (seen >= batches) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`writer exited (${code}) before ${batches} batches: ${stderr}`)));
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners("exit");
    child.on("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

/** Every document whole (chunks of one version, matching its hash) and every index in step with chunks. */
function checkIntegrity(path: string): number {
  const db = new Database(path);
  try {
    require("sqlite-vec").load(db);
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    db.prepare("INSERT INTO chunks_fts (chunks_fts) VALUES ('integrity-check')").run();
    const docs = db.prepare("SELECT id, text, content_hash, metadata FROM documents").all() as {
      id: string;
      text: string;
      content_hash: string;
      metadata: string;
    }[];
    const chunksOf = db.prepare('SELECT text, start, "end" FROM chunks WHERE doc_id = ? ORDER BY ordinal');
    for (const doc of docs) {
      expect(createHash("sha256").update(doc.text).digest("hex")).toBe(doc.content_hash);
      const { version, count } = JSON.parse(doc.metadata) as { version: number; count: number };
      const chunks = chunksOf.all(doc.id) as { text: string; start: number; end: number }[];
      expect(chunks).toHaveLength(count);
      for (const chunk of chunks) {
        expect(chunk.text).toContain(` v${version} `);
        expect(doc.text.slice(chunk.start, chunk.end)).toBe(chunk.text);
      }
    }
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    const chunks = count("SELECT count(*) AS n FROM chunks");
    expect(count("SELECT count(*) AS n FROM chunks_fts")).toBe(chunks);
    expect(count("SELECT count(*) AS n FROM vec_8")).toBe(count("SELECT count(*) AS n FROM chunks WHERE dims = 8"));
    expect(
      count("SELECT count(*) AS n FROM chunks c LEFT JOIN documents d ON d.id = c.doc_id WHERE d.id IS NULL"),
    ).toBe(0);
    return docs.length;
  } finally {
    db.close();
  }
}

describe("crash safety", () => {
  it("leaves the old or the new version of every document when killed mid-ingest", async () => {
    const path = join(dir, "crash.db");
    for (let round = 0; round < 3; round++) {
      const child = await startWriter(path, 4 + round * 3, round * 10_000);
      await killed(child);
      expect(checkIntegrity(path)).toBeGreaterThan(0);
    }
    const store = await createSqliteStore({ path });
    const hits = await store.keywordSearch({
      principal: { tenant: "default", user: "u", roles: [] },
      terms: ["lorem"],
      k: 5,
    });
    expect(hits).toHaveLength(5);
    await store.close();
  });
});
