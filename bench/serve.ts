/**
 * serve: `ferret serve` under load on loopback. autocannon at 32 connections against `POST /v1/search` and
 * offline `POST /v1/ask` (each for 30 s; 5 s with --quick; FERRET_BENCH_SERVE_SECONDS overrides both) on the
 * 10k-chunk synthetic corpus, the server in its own process (bench/serve-child.ts). Baseline: the same calls
 * made in-process through the library in this run, 32 at a time for the same time, on the same store file.
 * Reports requests/s, p50/p99, errors (socket errors, timeouts, non-2xx) and the server's RSS before and after.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { createFerret } from "../src/ferret.js";
import type { Ferret } from "../src/index.js";
import { createCorpus } from "./corpus.js";
import { buildStore } from "./fixtures.js";
import { now, percentile } from "./measure.js";
import type { BenchContext, Benchmark, BenchResult, ResultRow } from "./report.js";

const CHILD = fileURLToPath(new URL("./serve-child.ts", import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const CONNECTIONS = 32;
const CHUNKS = 10_000;
const QUESTIONS = 200;

function seconds(quick: boolean): number {
  const asked = Number(process.env.FERRET_BENCH_SERVE_SECONDS);
  if (Number.isFinite(asked) && asked > 0) return asked;
  return quick ? 5 : 30;
}

/** The server process: its first line is `{ url, key }`; `rss` asks for its resident set. */
class ServerProcess {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #lines: AsyncIterator<string>;

  constructor(db: string, tenant: string) {
    this.#child = spawn(process.execPath, ["--import", TSX, CHILD, JSON.stringify({ db, tenant })], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.#child.stderr.pipe(process.stderr);
    this.#lines = createInterface({ input: this.#child.stdout })[Symbol.asyncIterator]();
  }

  async next<T>(): Promise<T> {
    const line = await this.#lines.next();
    if (line.done) throw new Error("the bench server ended early");
    return JSON.parse(line.value) as T;
  }

  async rssMb(): Promise<number> {
    this.#child.stdin.write("rss\n");
    return (await this.next<{ rssMb: number }>()).rssMb;
  }

  /** Waits until the server has no request left over from the last load run. */
  async idle(): Promise<void> {
    this.#child.stdin.write("idle\n");
    await this.next<{ idle: true }>();
  }

  async stop(): Promise<void> {
    const ended = new Promise<void>((resolve) => this.#child.once("close", () => resolve()));
    this.#child.stdin.write("stop\n");
    const timer = setTimeout(() => this.#child.kill("SIGKILL"), 15_000);
    await ended;
    clearTimeout(timer);
  }
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
}

async function overHttp(url: string, key: string, path: string, bodies: string[], duration: number): Promise<Load> {
  let next = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    timeout: 30,
    requests: [
      {
        method: "POST",
        path,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }),
      },
    ],
  });
  return {
    rps: result["2xx"] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    requests: result["2xx"],
  };
}

/** The same calls through the library: 32 loops at once for `duration` seconds. */
async function inProcess(call: (i: number) => Promise<unknown>, duration: number): Promise<Load> {
  const samples: number[] = [];
  let errors = 0;
  let next = 0;
  const start = now();
  const end = start + duration * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (now() < end) {
        const t0 = now();
        try {
          await call(next++);
          samples.push(now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (now() - start) / 1000;
  return {
    rps: samples.length / elapsed,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    errors,
    requests: samples.length,
  };
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const duration = seconds(ctx.quick);
  const corpus = createCorpus({ chunks: CHUNKS });
  const db = join(ctx.scratch, "serve.db");
  await (await buildStore({ corpus, path: db, progress: ctx.progress })).close();
  const questions = corpus.facts.slice(0, QUESTIONS).map((f) => f.question);
  const queries = corpus.facts.slice(0, QUESTIONS).map((f) => `${f.entity} ${f.attribute}`);
  const searchBodies = queries.map((query) => JSON.stringify({ query }));
  const askBodies = questions.map((question) => JSON.stringify({ question }));

  const server = new ServerProcess(db, corpus.tenant);
  const extra: Record<string, unknown> = { duration, connections: CONNECTIONS, chunks: CHUNKS };
  // The in-process side opens the same store file; each route's two runs follow each other, so a machine
  // busy with something else weighs on both sides of a ratio alike.
  const ferret: Ferret = await createFerret({ db, env: {} });
  const principal = { tenant: corpus.tenant, user: "bench", roles: [] };
  const direct = {
    search: (i: number) => ferret.search(queries[i % queries.length] ?? "", { principal }),
    ask: (i: number) => ferret.ask(questions[i % questions.length] ?? "", { principal }),
  };
  const http = {} as { search: Load; ask: Load };
  let bareSearch: Load;
  const local = {} as { search: Load; ask: Load };
  let rss: { before: number; after: number };
  try {
    const { url, key, bareUrl } = await server.next<{ url: string; key: string; bareUrl: string }>();
    const routes = {
      search: { path: "/v1/search", bodies: searchBodies },
      ask: { path: "/v1/ask", bodies: askBodies },
    };
    ctx.progress(`serve: server at ${url}; warm-up`);
    for (const name of ["search", "ask"] as const) {
      await overHttp(url, key, routes[name].path, routes[name].bodies, 2);
      await server.idle();
      await inProcess(direct[name], 2);
    }
    const before = await server.rssMb();
    for (const name of ["search", "ask"] as const) {
      ctx.progress(`serve: autocannon ${routes[name].path}, ${CONNECTIONS} connections, ${duration}s`);
      http[name] = await overHttp(url, key, routes[name].path, routes[name].bodies, duration);
      await server.idle();
      ctx.progress(`serve: the same ${name} calls in-process, ${CONNECTIONS} at a time, ${duration}s`);
      local[name] = await inProcess(direct[name], duration);
    }
    ctx.progress(`serve: autocannon /v1/search on bare node:http in the server process, ${duration}s`);
    await overHttp(bareUrl, key, "/v1/search", searchBodies, 2);
    bareSearch = await overHttp(bareUrl, key, "/v1/search", searchBodies, duration);
    rss = { before, after: await server.rssMb() };
  } finally {
    await ferret.close();
    await server.stop();
  }
  extra.http = http;
  extra.inProcess = local;
  extra.bareSearch = bareSearch;
  extra.rssMb = rss;

  const rows: ResultRow[] = [];
  for (const name of ["search", "ask"] as const) {
    const route = `/v1/${name}`;
    rows.push(
      {
        metric: `${route} throughput`,
        unit: "req/s",
        ferret: http[name].rps,
        baseline: local[name].rps,
        baselineName: "in-process",
        better: "higher",
        target: { op: ">=", value: 0.8 * local[name].rps },
      },
      {
        metric: `${route} p50`,
        unit: "ms",
        ferret: http[name].p50,
        baseline: local[name].p50,
        baselineName: "in-process",
        better: "lower",
      },
      {
        metric: `${route} p99`,
        unit: "ms",
        ferret: http[name].p99,
        baseline: local[name].p99,
        baselineName: "in-process",
        better: "lower",
      },
      {
        metric: `${route} errors`,
        unit: "count",
        ferret: http[name].errors,
        better: "lower",
        target: { op: "<=", value: 0 },
      },
    );
  }
  rows.push(
    {
      metric: "/v1/search on bare node:http",
      unit: "req/s",
      ferret: bareSearch.rps,
      baseline: local.search.rps,
      baselineName: "in-process",
      better: "higher",
    },
    {
      metric: "/v1/search, serve vs bare node:http",
      unit: "req/s",
      ferret: http.search.rps,
      baseline: bareSearch.rps,
      baselineName: "bare node:http",
      better: "higher",
    },
  );
  rows.push({
    metric: "server RSS growth",
    unit: "MB",
    ferret: rss.after - rss.before,
    better: "lower",
    target: { op: "<", value: 50 },
  });
  return {
    name: "serve",
    rows,
    notes: [
      `${CHUNKS.toLocaleString("en-US")}-chunk synthetic corpus, keyword retrieval, offline engine; ${CONNECTIONS} connections for ${duration}s per route (FERRET_BENCH_SERVE_SECONDS sets it)`,
      `server in its own process (request logs on, to /dev/null), autocannon in this one; throughput target: at least 0.8x the in-process rate`,
      `requests: /v1/search ${http.search.requests} over HTTP vs ${local.search.requests} in-process; /v1/ask ${http.ask.requests} vs ${local.ask.requests}`,
      `bare node:http: the same search in the server process with no framework, auth or logs; the ceiling of any Node HTTP server around this call`,
      `server RSS ${rss.before.toFixed(0)} MB after warm-up, ${rss.after.toFixed(0)} MB after both runs`,
    ],
    extra,
  };
}

export const serveBenchmark: Benchmark = {
  name: "serve",
  description: `ferret serve under autocannon (${CONNECTIONS} connections; /v1/search and offline /v1/ask) vs the same calls in-process`,
  run,
};
