/**
 * The server side of the serve bench, in its own process so its RSS is its own:
 *   tsx bench/serve-child.ts '{"db":"/tmp/x/serve.db"}'
 * Starts `ferret serve` (the same startServer the CLI runs) on 127.0.0.1 with a free port and prints one JSON
 * line `{ url, key, bareUrl }` (a fresh API key for the corpus tenant; bareUrl is a framework-free node:http
 * server in the same process answering /v1/search, the floor of any HTTP server around the same call). Then reads commands on stdin, one per line:
 * `rss` prints `{ rssMb }`, `idle` prints `{ idle: true }` once no request holds or waits for a work slot
 * (the client of a finished load run may leave requests behind), `stop` stops the server gracefully and exits.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
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
// The floor any Node HTTP server pays around the same call: node:http with no framework, no auth, no logs,
// reading the JSON body, searching as the key's principal and writing the passages as JSON.
const principal = { tenant: args.tenant, user: "bench", roles: [] };
const bare = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const { query } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { query: string };
    ferret.search(query, { principal }).then(
      (passages) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ passages }));
      },
      () => {
        res.writeHead(500);
        res.end();
      },
    );
  });
});
await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
const say = (value: object) => process.stdout.write(`${JSON.stringify(value)}\n`);
say({ url: server.url, key, bareUrl });
for await (const line of createInterface({ input: process.stdin })) {
  if (line === "rss") say({ rssMb: process.memoryUsage.rss() / 1024 / 1024 });
  if (line === "idle") {
    const { limiter } = server.app.deps;
    while (limiter.active > 0 || limiter.queued > 0) await new Promise((r) => setTimeout(r, 20));
    say({ idle: true });
  }
  if (line === "stop") break;
}
bare.close();
await server.close();
process.exit(0);
