/**
 * Two `ferret ingest --workers 2` processes at once into one PostgreSQL database, each on its own source:
 * every document arrives once, the counts equal the sum of the two sources ingested alone, and bm25's row and
 * token totals (bm25_stats) equal the rows written.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createFerret } from "../../ferret.js";
import { LOCAL_OWNER } from "../../spec/principal.js";
import { setScope } from "./db.js";
import { describeOnServers } from "./test-servers.js";

const MAIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "cli", "main.ts");
const SOURCES = ["alpha", "beta"];
const FILES = 40;

let dir: string;
let expected: Record<string, { documents: number; chunks: number }>;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ferret-pg-concurrent-"));
  for (const source of SOURCES) {
    mkdirSync(join(dir, source));
    for (let i = 0; i < FILES; i++) {
      const paragraphs = Array.from(
        { length: 1 + (i % 4) },
        (_, p) => `Paragraph ${p} of note ${i} in ${source}: the ${source} service handles request ${i * 7 + p}.`,
      );
      writeFileSync(join(dir, source, `note-${i}.md`), `# ${source} note ${i}\n\n${paragraphs.join("\n\n")}\n`);
    }
  }
  expected = await alone();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `ferret ingest` in its own process (the CLI's entry run from source). */
function ingestProcess(db: string, source: string): Promise<{ code: number | null; out: string; err: string }> {
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
      join(dir, source),
      "--source",
      source,
      "--db",
      db,
      "--workers",
      "2",
      "--json",
    ],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, FERRET_DB: "" } },
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, out, err })));
}

/** Documents and chunks per source when each source is ingested alone into a SQLite file. */
async function alone(): Promise<Record<string, { documents: number; chunks: number }>> {
  const out: Record<string, { documents: number; chunks: number }> = {};
  for (const source of SOURCES) {
    const ferret = await createFerret({ db: join(dir, `${source}.db`), principal: LOCAL_OWNER });
    try {
      const summary = await ferret.ingest(join(dir, source), { source, workers: 0 });
      out[source] = { documents: summary.added, chunks: summary.chunks };
    } finally {
      await ferret.close();
    }
  }
  return out;
}

describeOnServers(
  (kind) => `two ingest processes at once into one database on ${kind}`,
  (server) => {
    it("write every document once: the counts are the sum of each source alone", async () => {
      expect(expected.alpha?.documents).toBe(FILES);
      const url = await (await server()).database();
      const runs = await Promise.all(SOURCES.map((source) => ingestProcess(url, source)));
      for (const run of runs) expect(run.code, run.err).toBe(0);

      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        // Row-level security binds the tables' owner too: read as the store's own counts do, every tenant.
        await client.query("BEGIN");
        await setScope(client, { allTenants: true, roles: ["*"] });
        const rows = (
          await client.query<{ source: string; documents: string; chunks: string }>(
            `SELECT d.source, COUNT(DISTINCT d.id) AS documents,
               (SELECT COUNT(*) FROM ferret.chunks c WHERE c.source = d.source) AS chunks
             FROM ferret.documents d GROUP BY d.source ORDER BY d.source`,
          )
        ).rows;
        expect(rows.map((r) => r.source)).toEqual(SOURCES);
        for (const row of rows) {
          expect(Number(row.documents), row.source).toBe(expected[row.source]?.documents);
          expect(Number(row.chunks), row.source).toBe(expected[row.source]?.chunks);
        }
        const total = await client.query<{ n: string }>("SELECT COUNT(*) AS n FROM ferret.documents");
        expect(Number(total.rows[0]?.n)).toBe(2 * FILES);
        // bm25's N and token totals, kept as delta rows by the concurrent writers, add up to the rows written.
        for (const table of ["chunks", "documents"]) {
          const stats = (
            await client.query<{ source: string; n: string; ntok: string; rows: string; tokens: string }>(
              `SELECT s.source, sum(s.n) AS n, sum(s.ntok) AS ntok,
                 (SELECT count(*) FROM ferret.${table} AS t WHERE t.source = s.source) AS rows,
                 (SELECT sum(t.ntok) FROM ferret.${table} AS t WHERE t.source = s.source) AS tokens
               FROM ferret.bm25_stats AS s WHERE s.tbl = $1 GROUP BY s.source ORDER BY s.source`,
              [table],
            )
          ).rows;
          expect(stats.map((r) => r.source)).toEqual(SOURCES);
          for (const row of stats) {
            expect(Number(row.n), `${table} ${row.source}`).toBe(Number(row.rows));
            expect(Number(row.ntok), `${table} ${row.source}`).toBe(Number(row.tokens));
          }
        }
      } finally {
        await client.query("ROLLBACK");
        await client.end();
      }
    }, 240_000);
  },
);
