import type { Command } from "commander";
import pino from "pino";
import { resolveConfig } from "../config/resolve-config.js";
import type { Ferret } from "../ferret.js";
import type { PathWatcher } from "../ingest/watch/watch-path.js";
import { serveMcpStdio } from "../mcp/stdio.js";
import { resolveServeConfig, type ServeConfig } from "../server/config.js";
import { startServer } from "../server/serve.js";
import { isWebUrl } from "../text/text-fragment.js";
import { collectWith, oneOf, positiveNumber, wholeNumber } from "./flag-parsers.js";
import { ingestJobs } from "./ingest-command.js";
import { type GlobalOptions, openFerret, usesGlobalOptions } from "./options.js";
import { parsePrincipal } from "./principal.js";

interface ServeFlags extends GlobalOptions {
  port?: number;
  host?: string;
  insecureLocal?: boolean;
  cors?: string[];
  logContent?: boolean;
  logLevel?: ServeConfig["logLevel"];
  dailyUsd?: number;
  concurrency?: number;
  queue?: number;
  maxUploadMb?: number;
}

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** The config file's sources marked `watch: true`, kept ingested while the server runs (each change logged). */
async function watchConfigSources(ferret: Ferret, flags: GlobalOptions, logger: pino.Logger): Promise<PathWatcher[]> {
  const config = resolveConfig({ flags: { ...flags }, env: process.env });
  if (!config.file || !(config.content.sources ?? []).some((s) => s.watch)) return [];
  const watchers: PathWatcher[] = [];
  for (const job of ingestJobs(undefined, flags).filter((j) => j.watch && !isWebUrl(j.path))) {
    watchers.push(
      await ferret.watch(job.path, {
        source: job.source,
        description: job.description,
        acl: job.acl,
        tenant: job.tenant,
        onIngest: (summary, changed) =>
          logger.info(
            {
              sources: summary.sources,
              added: summary.added,
              updated: summary.updated,
              removed: summary.removed,
              changed: changed.length,
            },
            "watched source ingested",
          ),
        onError: (error) => logger.error({ err: error, path: job.path }, "watched source ingest failed"),
      }),
    );
  }
  return watchers;
}

/** `ferret serve`: the HTTP API and `/mcp`, until SIGTERM or SIGINT (then a graceful stop). */
export function serveCommand(program: Command): void {
  usesGlobalOptions(
    program
      .command("serve")
      .description("serve the HTTP API (with /mcp) over this knowledge base; API keys required")
      .option("--port <n>", "port (env FERRET_PORT; default 8787; 0 picks a free one)", wholeNumber(0, 65_535))
      .option("--host <host>", "address to bind (env FERRET_HOST; default 127.0.0.1)")
      .option("--insecure-local", "no API keys: every request is the local owner (loopback only, warns on start)")
      .option("--cors <origin>", "allow this browser origin (repeatable; env FERRET_CORS_ORIGINS)", collectWith(String))
      .option("--log-content", "log question and answer text (off by default)")
      .option("--log-level <level>", LEVELS.join(" | "), oneOf(LEVELS))
      .option("--daily-usd <usd>", "daily model spend cap per tenant, USD (env FERRET_DAILY_USD)", positiveNumber)
      .option("--concurrency <n>", "requests doing work at once (default 32)", wholeNumber(1, 10_000))
      .option("--queue <n>", "requests that may wait for a slot before 503 (default 1024)", wholeNumber(0, 1_000_000))
      .option("--max-upload-mb <mb>", "largest upload (default 50)", positiveNumber),
  ).action(async (flags: ServeFlags) => {
    const config = resolveServeConfig({
      flags: {
        ...(flags.port !== undefined ? { port: flags.port } : {}),
        ...(flags.host ? { host: flags.host } : {}),
        ...(flags.insecureLocal ? { insecureLocal: true } : {}),
        ...(flags.cors ? { corsOrigins: flags.cors } : {}),
        ...(flags.logContent ? { logContent: true } : {}),
        ...(flags.logLevel ? { logLevel: flags.logLevel } : {}),
        ...(flags.dailyUsd !== undefined ? { dailyUsd: flags.dailyUsd } : {}),
        ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
        ...(flags.queue !== undefined ? { queue: flags.queue } : {}),
        ...(flags.maxUploadMb !== undefined ? { maxUploadBytes: Math.round(flags.maxUploadMb * 1024 * 1024) } : {}),
      },
      env: process.env,
      file: resolveConfig({ flags: { ...flags }, env: process.env }).content.serve ?? {},
    });
    const logger = pino({ level: config.logLevel });
    const ferret = await openFerret(flags, "create");
    let server: Awaited<ReturnType<typeof startServer>>;
    try {
      server = await startServer({ ferret, config, logger });
    } catch (error) {
      await ferret.close();
      throw error;
    }
    let watchers: PathWatcher[];
    try {
      watchers = await watchConfigSources(ferret, flags, logger);
    } catch (error) {
      await server.close();
      throw error;
    }
    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        logger.info({ signal }, "signal received");
        Promise.all(watchers.map((w) => w.close()))
          .then(() => server.close())
          .then(resolve, (error: unknown) => {
            logger.error({ err: error }, "shutdown failed");
            resolve();
          });
      };
      process.once("SIGTERM", () => stop("SIGTERM"));
      process.once("SIGINT", () => stop("SIGINT"));
    });
  });
}

/** `ferret mcp`: an MCP server on stdio acting as `--as` (or the config file's `mcp.as`, or the local owner). */
export function mcpCommand(program: Command): void {
  usesGlobalOptions(
    program
      .command("mcp")
      .description("serve MCP on stdin/stdout (tools search, ask, list_sources, run_sql; source resources)"),
  ).action(async (flags: GlobalOptions) => {
    // `--as` (or FERRET_AS, or the file's `as`), else the file's `mcp.as`, else the local owner.
    const as = flags.as ?? resolveConfig({ flags: { ...flags }, env: process.env }).content.mcp?.as;
    const ferret = await openFerret(flags, "existing");
    try {
      const principal = as ? parsePrincipal(as) : await ferret.defaultPrincipal();
      await serveMcpStdio({ ferret, principal });
    } finally {
      await ferret.close();
    }
  });
}
