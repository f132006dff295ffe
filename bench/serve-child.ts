/**
 * The server side of the serve bench, in its own process so its RSS is its own:
 *   tsx bench/serve-child.ts '{"db":"/tmp/x/serve.db"}'
 * Starts `ferret serve` (the same startServer the CLI runs) on 127.0.0.1 with a free port and prints one JSON
 * line `{ url, key }` (a fresh API key for the corpus tenant). Then reads commands on stdin, one per line:
 * `rss` prints `{ rssMb }`, `idle` prints `{ idle: true }` once no request holds or waits for a work slot
 * (the client of a finished load run may leave requests behind), `stop` stops the server gracefully and exits.
 */
import { createInterface } from "node:readline";
import pino from "pino";
import { createFerret } from "../src/ferret.js";
import { resolveServeConfig } from "../src/server/config.js";
import { startServer } from "../src/server/serve.js";

const args = JSON.parse(process.argv[2] ?? "{}") as { db: string; tenant: string };
const ferret = await createFerret({ db: args.db, env: {} });
const { key } = await ferret.keys.create({ tenant: args.tenant, user: "bench", roles: [] });
// Request logs are written as in production, to a sink that costs no pipe to the parent.
const logger = pino({ level: "info" }, pino.destination({ dest: "/dev/null", sync: false }));
const server = await startServer({
  ferret,
  config: resolveServeConfig({ flags: { host: "127.0.0.1", port: 0 } }),
  logger,
});
const say = (value: object) => process.stdout.write(`${JSON.stringify(value)}\n`);
say({ url: server.url, key });
for await (const line of createInterface({ input: process.stdin })) {
  if (line === "rss") say({ rssMb: process.memoryUsage.rss() / 1024 / 1024 });
  if (line === "idle") {
    const { limiter } = server.app.deps;
    while (limiter.active > 0 || limiter.queued > 0) await new Promise((r) => setTimeout(r, 20));
    say({ idle: true });
  }
  if (line === "stop") break;
}
await server.close();
process.exit(0);
