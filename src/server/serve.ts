import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import pino, { type Logger } from "pino";
import { type Ferret, InvalidInputError } from "../index.js";
import { createServerApp, type ServerApp } from "./app.js";
import { isLoopback, type ServeConfig } from "./config.js";

export interface RunningServer {
  /** `http://host:port` as bound (the real port when 0 was asked for). */
  url: string;
  port: number;
  app: ServerApp;
  /** Graceful stop: no new connections or work, in-flight runs finish or are aborted, the store is closed. */
  close(graceMs?: number): Promise<void>;
}

const INSECURE_WARNING =
  "--insecure-local: no API keys are checked; every request acts as the local owner of the knowledge base. " +
  "Only this machine can connect (loopback). Do not use this where others share the machine.";

/** Starts `ferret serve` on the configured host and port. */
export async function startServer(options: {
  ferret: Ferret;
  config: ServeConfig;
  logger?: Logger;
  /** The built web UI served at `/` (default: `dist/web`; `false` serves none). */
  uiDir?: string | false;
}): Promise<RunningServer> {
  const { config } = options;
  const logger = options.logger ?? pino({ level: config.logLevel });
  if (config.insecureLocal && !isLoopback(config.host)) {
    throw new InvalidInputError(
      `--insecure-local serves only on a loopback address (127.0.0.1, ::1, localhost), not ${config.host}`,
      { field: "host" },
    );
  }
  if (config.insecureLocal) logger.warn(INSECURE_WARNING);
  const app = createServerApp({
    ferret: options.ferret,
    config,
    logger,
    ...(options.uiDir !== undefined ? { uiDir: options.uiDir } : {}),
  });
  const server = serve({ fetch: app.app.fetch, hostname: config.host, port: config.port });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  logger.info({ url, insecureLocal: config.insecureLocal }, "ferret serve listening");
  let closing: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    app,
    close(graceMs) {
      closing ??= (async () => {
        logger.info("shutting down: no new connections; in-flight work finishes");
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await app.shutdown(graceMs);
        (server as import("node:http").Server).closeAllConnections?.();
        await stopped;
        logger.info("stopped");
      })();
      return closing;
    },
  };
}
