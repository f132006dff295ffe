import { readFileSync } from "node:fs";
import type { Command } from "commander";
import pino from "pino";
import { serveMcpStdio } from "../mcp/stdio.js";
import { DEFAULT_CONFIG_FILE } from "../models/config.js";
import { readServeSection, resolveServeConfig, type ServeConfig } from "../server/config.js";
import { startServer } from "../server/serve.js";
import { InvalidInputError } from "../spec/errors.js";
import { collectWith, oneOf, positiveNumber, wholeNumber } from "./flag-parsers.js";
import { addGlobalOptions, type GlobalOptions, openFerret } from "./options.js";
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
  config: string;
}

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** `ferret serve`: the HTTP API and `/mcp`, until SIGTERM or SIGINT (then a graceful stop). */
export function serveCommand(program: Command): void {
  addGlobalOptions(
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
      .option("--max-upload-mb <mb>", "largest upload (default 50)", positiveNumber)
      .option("--config <file>", "config file with a `serve` section", DEFAULT_CONFIG_FILE),
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
      file: readServeSection(flags.config),
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
    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        logger.info({ signal }, "signal received");
        server.close().then(resolve, (error: unknown) => {
          logger.error({ err: error }, "shutdown failed");
          resolve();
        });
      };
      process.once("SIGTERM", () => stop("SIGTERM"));
      process.once("SIGINT", () => stop("SIGINT"));
    });
  });
}

/** The `mcp.as` entry of a config file (`TENANT:USER:ROLES`), if any. */
function configuredPrincipal(file: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new InvalidInputError(`${file} is not valid JSON`, { file }, error);
  }
  const as = (value as { mcp?: { as?: unknown } } | null)?.mcp?.as;
  if (as === undefined) return undefined;
  if (typeof as !== "string")
    throw new InvalidInputError(`${file}, mcp.as must be "TENANT:USER:ROLES"`, { file, field: "mcp.as" });
  return as;
}

/** `ferret mcp`: an MCP server on stdio acting as `--as` (or the config file's `mcp.as`, or the local owner). */
export function mcpCommand(program: Command): void {
  addGlobalOptions(
    program
      .command("mcp")
      .description("serve MCP on stdin/stdout (tools search, ask, list_sources, run_sql; source resources)")
      .option("--config <file>", "config file with an `mcp.as` principal", DEFAULT_CONFIG_FILE),
  ).action(async (flags: GlobalOptions & { config: string }) => {
    const as = flags.as ?? configuredPrincipal(flags.config);
    const ferret = await openFerret(flags, "existing");
    try {
      const principal = as ? parsePrincipal(as) : await ferret.defaultPrincipal();
      await serveMcpStdio({ ferret, principal });
    } finally {
      await ferret.close();
    }
  });
}
