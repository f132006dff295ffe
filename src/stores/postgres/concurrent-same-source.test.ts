/**
 * Two `ferret ingest` processes at once on the same source into one PostgreSQL cluster: both finish, and every
 * document and chunk is there once (the counts of the source ingested alone, no chunk id twice). Each
 * document's write takes an advisory lock, so the two writers of one document take turns instead of both
 * deleting its old chunks and then both inserting. Runs on a throw-away PostgreSQL cluster (initdb and pg_ctl
 * on PATH): PGlite serves every connection from one backend, so its writers never overlap.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFerret } from "../../ferret.js";
import { LOCAL_OWNER } from "../../spec/principal.js";
import { setScope } from "./db.js";
import { clusterAvailable, SERVER_MS, startCluster, stopServers, type TestServer } from "./test-servers.js";

const MAIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "cli", "main.ts");
const SOURCE = "ledger";
const FILES = 60;

function ingestProcess(db: string, folder: string): Promise<{ code: number | null; err: string }> {
  const script = `import { main } from ${JSON.stringify(MAIN)}; process.exitCode = await main(process.argv);`;
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      script,
      "ferret",
      "ingest",
      folder,
      "--source",
      SOURCE,
      "--db",
      db,
      "--workers",
      "2",
      "--json",
    ],
    { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, FERRET_DB: "" } },
  );
  let err = "";
  child.stderr.on("data", (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, err })));
}

describe.skipIf(!clusterAvailable())(
  "two ingest processes on the same source (PostgreSQL cluster; skipped without initdb and pg_ctl on PATH)",
  () => {
    let dir: string;
    let server: TestServer | undefined;
    let expected: { documents: number; chunks: number };
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "ferret-pg-same-source-"));
      mkdirSync(join(dir, SOURCE));
      for (let i = 0; i < FILES; i++) {
        const paragraphs = Array.from(
          { length: 2 + (i % 3) },
          (_, p) => `Entry ${p} of page ${i}: the quarry office logged crate ${i * 11 + p} to the east shed.`,
        );
        writeFileSync(join(dir, SOURCE, `page-${i}.md`), `# Ledger page ${i}\n\n${paragraphs.join("\n\n")}\n`);
      }
      const ferret = await createFerret({ db: join(dir, "alone.db"), principal: LOCAL_OWNER });
      try {
        const summary = await ferret.ingest(join(dir, SOURCE), { source: SOURCE, workers: 0 });
        expected = { documents: summary.added, chunks: summary.chunks };
      } finally {
        await ferret.close();
      }
      server = await startCluster();
    }, SERVER_MS.start);
    afterAll(async () => {
      await stopServers([server ? Promise.resolve(server) : undefined]);
      rmSync(dir, { recursive: true, force: true });
    }, SERVER_MS.stop);

    it("both finish and every document and chunk is there once", async () => {
      expect(expected.documents).toBe(FILES);
      const url = await (server as TestServer).database();
      const runs = await Promise.all([ingestProcess(url, join(dir, SOURCE)), ingestProcess(url, join(dir, SOURCE))]);
      for (const run of runs) expect(run.code, run.err).toBe(0);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query("BEGIN");
        await setScope(client, { allTenants: true, roles: ["*"] });
        const n = async (sql: string) => Number((await client.query<{ n: string }>(sql)).rows[0]?.n);
        expect(await n("SELECT COUNT(*) AS n FROM ferret.documents")).toBe(expected.documents);
        expect(await n("SELECT COUNT(*) AS n FROM ferret.chunks")).toBe(expected.chunks);
        // Each chunk of a document once: no ordinal of a document twice.
        expect(
          await n(
            "SELECT COUNT(*) AS n FROM (SELECT 1 FROM ferret.chunks GROUP BY doc_id, ordinal HAVING COUNT(*) > 1) AS t",
          ),
        ).toBe(0);
      } finally {
        await client.query("ROLLBACK");
        await client.end();
      }
    }, 240_000);
  },
);
