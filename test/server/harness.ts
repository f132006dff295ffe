import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { type AgentEngineV1, createFerret, type Ferret, type FerretOptions } from "../../src/index.js";
import { resolveServeConfig, type ServeConfig } from "../../src/server/config.js";
import { type RunningServer, startServer } from "../../src/server/serve.js";
import { ingestTwoTenants, PERSONAS } from "../fixtures/server/two-tenants.js";

export interface TestServer {
  url: string;
  dir: string;
  db: string;
  ferret: Ferret;
  server: RunningServer;
  /** API key per persona name (see PERSONAS). */
  keys: Record<string, string>;
  /** Log lines the server wrote (JSON objects). */
  logs: Record<string, unknown>[];
  /** Stops the server (graceful) and removes the folder unless `keepDir`. */
  close(options?: { keepDir?: boolean }): Promise<void>;
}

export interface TestServerOptions {
  config?: Partial<Omit<ServeConfig, "maxima">> & { maxima?: Partial<ServeConfig["maxima"]> };
  model?: AgentEngineV1;
  /** Use this folder (and its ferret.db) instead of a new one: a restart. */
  dir?: string;
  /** Skip ingesting the two-tenant set (a restart keeps what is there). */
  ingest?: boolean;
  /** Create persona keys (default true; a restart passes the old ones instead). */
  keys?: Record<string, string>;
  ferret?: Partial<FerretOptions>;
}

/** A real `ferret serve` on a loopback port over the two-tenant set, with one key per persona. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "ferret-serve-"));
  const db = join(dir, "ferret.db");
  const ferret = await createFerret({ db, ...(options.model ? { model: options.model } : {}), ...options.ferret });
  if (options.ingest !== false) await ingestTwoTenants(ferret, join(dir, "set"));
  const keys: Record<string, string> = { ...options.keys };
  if (!options.keys) {
    for (const persona of PERSONAS) {
      keys[persona.name] = (
        await ferret.keys.create({
          tenant: persona.principal.tenant,
          user: persona.principal.user,
          roles: persona.principal.roles,
        })
      ).key;
    }
  }
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) if (line.trim()) logs.push(JSON.parse(line));
      done();
    },
  });
  const config = resolveServeConfig({ flags: { host: "127.0.0.1", port: 0, ...options.config } });
  const server = await startServer({ ferret, config, logger: pino({ level: "info" }, sink) });
  return {
    url: server.url,
    dir,
    db,
    ferret,
    server,
    keys,
    logs,
    async close(closeOptions = {}) {
      await server.close(200);
      if (!closeOptions.keepDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Headers with a persona's key. */
export function auth(key: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${key}`, "content-type": "application/json", ...extra };
}

export async function postJson(url: string, key: string, body: unknown): Promise<Response> {
  return fetch(url, { method: "POST", headers: auth(key), body: JSON.stringify(body) });
}
