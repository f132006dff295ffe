/**
 * The eval gate's retrieval on both stores: runs `ferret eval SET` (the offline engine, as the CI gate does)
 * once on a SQLite file and once on PGlite (and on a throw-away PostgreSQL cluster where initdb and pg_ctl are
 * on PATH), and prints recall@5 of each with its difference from SQLite. The target is a difference of
 * at most 0.01 (PostgreSQL ranks keywords with SQLite's bm25, src/stores/postgres/bm25.ts); the script fails
 * (exit 1) on a larger one only with FERRET_CI_STORE_PARITY=strict.
 *
 *   npx tsc -p tsconfig.build.json && npx tsx scripts/eval-stores.ts SET_DIR [--limit N] [--keep DIR]
 *
 * Each question whose recall@5 differs from SQLite's is listed; `--keep DIR` keeps each store's eval output
 * (results.jsonl, traces.jsonl) in DIR/STORE to compare their searches.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { clusterAvailable, startCluster, startPglite, type TestServer } from "../src/stores/postgres/test-servers.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TOLERANCE = 0.01;

interface Measured {
  store: string;
  recall5: number | null;
  questions: number;
  /** recall@5 per question id. */
  perQuestion: Map<string, number | null>;
}

function evalOn(store: string, setDir: string, db: string, out: string, limit: string | undefined): Measured {
  const args = [join(root, "bin", "ferret.js"), "eval", setDir, "--db", db, "--out", out, "--json"];
  if (limit !== undefined) args.push("--limit", limit);
  process.stderr.write(`== ${store}: ferret eval ${setDir}\n`);
  execFileSync(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"], maxBuffer: 64 * 1024 * 1024 });
  const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8")) as {
    aggregates: { overall: { n: number; metrics: Record<string, number | null> } };
  };
  const perQuestion = new Map<string, number | null>();
  for (const line of readFileSync(join(out, "results.jsonl"), "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const r = JSON.parse(line) as { id: string; metrics: Record<string, number | null> };
    perQuestion.set(r.id, r.metrics["recall@5"] ?? null);
  }
  return {
    store,
    recall5: report.aggregates.overall.metrics["recall@5"] ?? null,
    questions: report.aggregates.overall.n,
    perQuestion,
  };
}

async function main(argv: string[]): Promise<number> {
  const setDir = argv.find((a, i) => !a.startsWith("-") && argv[i - 1] !== "--limit" && argv[i - 1] !== "--keep");
  const limitAt = argv.indexOf("--limit");
  const limit = limitAt >= 0 ? argv[limitAt + 1] : undefined;
  const keepAt = argv.indexOf("--keep");
  const keep = keepAt >= 0 ? argv[keepAt + 1] : undefined;
  if (!setDir) {
    process.stderr.write("usage: tsx scripts/eval-stores.ts SET_DIR [--limit N] [--keep DIR]\n");
    return 2;
  }
  const scratch = keep ?? mkdtempSync(join(tmpdir(), "ferret-eval-stores-"));
  const results: Measured[] = [];
  const onServer = async (store: string, start: () => Promise<TestServer>) => {
    const server = await start();
    try {
      results.push(evalOn(store, setDir, await server.database(), join(scratch, store), limit));
    } finally {
      await server.stop();
    }
  };
  try {
    results.push(evalOn("sqlite", setDir, join(scratch, "eval.db"), join(scratch, "sqlite"), limit));
    await onServer("pglite", startPglite);
    if (clusterAvailable()) await onServer("pg15-cluster", startCluster);
  } finally {
    if (keep === undefined) rmSync(scratch, { recursive: true, force: true });
  }
  const base = results[0]?.recall5 ?? null;
  let apart = false;
  process.stdout.write(`recall@5 on ${setDir}\n`);
  for (const r of results) {
    const diff = base !== null && r.recall5 !== null ? r.recall5 - base : null;
    const within = diff === null || Math.abs(diff) <= TOLERANCE + 1e-9;
    if (!within) apart = true;
    process.stdout.write(
      `  ${r.store.padEnd(13)} ${r.recall5 === null ? "-" : r.recall5.toFixed(3)}  (${r.questions} questions)` +
        (r === results[0] ? "" : `  diff ${diff === null ? "-" : diff.toFixed(3)} ${within ? "ok" : "APART"}`) +
        "\n",
    );
  }
  // The questions whose recall@5 differs from SQLite's, to find where the rankings part.
  for (const r of results.slice(1)) {
    const differing = [...(results[0]?.perQuestion ?? [])].filter(([id, v]) => r.perQuestion.get(id) !== v);
    for (const [id, v] of differing) {
      process.stdout.write(`    ${r.store}: ${id} recall@5 ${r.perQuestion.get(id) ?? "-"} (sqlite ${v ?? "-"})\n`);
    }
  }
  if (!apart) return 0;
  const strict = process.env.FERRET_CI_STORE_PARITY === "strict";
  process.stdout.write(
    `store parity: recall@5 differs by more than ${TOLERANCE}${strict ? " (strict: failing)" : " (reported; FERRET_CI_STORE_PARITY=strict fails on it)"}\n`,
  );
  return strict ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
