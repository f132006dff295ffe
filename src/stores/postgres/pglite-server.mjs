#!/usr/bin/env node
/**
 * A local PostgreSQL for trying the PostgreSQL store and for tests: PGlite (PostgreSQL compiled to
 * WebAssembly) with pgvector and pg_textsearch, served over the PostgreSQL wire protocol on loopback.
 *
 *   npm run pg:dev                      in memory, port 5433
 *   npm run pg:dev -- --port 0          a free port (printed)
 *   npm run pg:dev -- --data .pgdata    keeps the data in a folder
 *   --json                              prints {"url": ...} as one line (for programs)
 *
 * PGlite runs one query at a time and cannot cancel one (statement_timeout has no effect): fine for trials
 * and tests, not for production.
 */
import { PGlite } from "@electric-sql/pglite";
import { pg_textsearch } from "@electric-sql/pglite-pg_textsearch";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
}

const port = Number(option("port", "5433"));
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`pg:dev: --port must be a port number (0 for a free one), got ${option("port")}\n`);
  process.exit(2);
}
const dataDir = option("data", undefined);
const json = process.argv.includes("--json");

const db = await PGlite.create(dataDir, { extensions: { vector, pg_textsearch } });
const server = new PGLiteSocketServer({ db, port, host: "127.0.0.1", maxConnections: 100 });
await server.start();
const url = `postgres://postgres@${server.getServerConn()}/postgres`;
if (json) process.stdout.write(`${JSON.stringify({ url })}\n`);
else {
  process.stdout.write(`PGlite (PostgreSQL with pgvector and pg_textsearch) is listening.\n\n`);
  process.stdout.write(`  FERRET_DB=${url}\n\n`);
  process.stdout.write(`Use it with: FERRET_DB=${url} npx ferret ingest examples/acme\n`);
  process.stdout.write(
    `Data is ${dataDir ? `kept in ${dataDir}` : "in memory (gone when this stops)"}. Ctrl-C stops it.\n`,
  );
}

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await server.stop();
  await db.close();
  process.exit(0);
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
// --exit-with-stdin: a parent that spawned this server (a test) and went away takes it along.
if (process.argv.includes("--exit-with-stdin")) {
  process.stdin.on("end", stop);
  process.stdin.resume();
}
