import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { createFerret, DEFAULT_DB, type Ferret } from "../ferret.js";
import { InvalidInputError } from "../spec/errors.js";
import type { Principal } from "../spec/principal.js";
import { redactUrl } from "../stores/postgres/db.js";
import { isPostgresUrl } from "../stores/postgres/index.js";
import { oneOf } from "./flag-parsers.js";
import { parsePrincipal } from "./principal.js";

/** Options every command takes. */
export interface GlobalOptions {
  db?: string;
  embedder?: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  as?: string;
  json?: boolean;
  reranker?: string;
  retrieval?: "flat" | "hierarchical" | "auto";
  cache?: boolean;
  /** Refuse offline answers below this confidence (`--min-confidence`, on ask and eval). */
  minConfidence?: number;
}

export function addGlobalOptions(cmd: Command): Command {
  return cmd
    .option("--db <file|url>", `SQLite file or postgres:// URL (env FERRET_DB; default ${DEFAULT_DB})`)
    .option(
      "--embedder <spec>",
      "none | local:<model> | openai:<model> | ollama:<model> | openai-compatible:<model> (env FERRET_EMBEDDER)",
    )
    .option(
      "--model <spec>",
      "offline | openai:<m> | anthropic:<m> | ollama:<m> | openai-compatible:<m> (env FERRET_MODEL)",
    )
    .option("--base-url <url>", "base URL for openai-compatible and ollama")
    .option("--api-key <key>", "API key (prefer the provider's environment variable)")
    .option("--as <principal>", "act as TENANT:USER:ROLE,ROLE")
    .option("--reranker <spec>", "re-rank evidence before answering: lexical | local:<model> (env FERRET_RERANKER)")
    .option(
      "--retrieval <shape>",
      "flat | hierarchical | auto (document pass first on large stores)",
      oneOf(["flat", "hierarchical", "auto"] as const),
    )
    .option("--no-cache", "do not reuse results of repeated searches")
    .option("--json", "machine-readable output");
}

export function principalOf(opts: GlobalOptions): Principal | undefined {
  return opts.as ? parsePrincipal(opts.as) : undefined;
}

/**
 * `existing`: the command only reads (search, sources, trace) or answers from (ask, chat) a knowledge base
 * that must already exist; nothing is created, so these commands run in a folder they cannot write.
 * `create`: the command writes (ingest) and creates the database when it is missing.
 */
export type StoreAccess = "existing" | "create";

/** File-system and SQLite error codes that mean "this location cannot be used". */
const LOCATION_CODES = new Set([
  "EACCES",
  "EPERM",
  "EROFS",
  "ENOTDIR",
  "ENOENT",
  "EISDIR",
  "SQLITE_CANTOPEN",
  "SQLITE_READONLY",
  "SQLITE_PERM",
]);

function codeOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && LOCATION_CODES.has(code)) return code;
  }
  return undefined;
}

const CHOOSE = "name a writable location with --db FILE or the FERRET_DB environment variable";

/** Opens the knowledge base a command works on (see `StoreAccess`), with errors that name the file and the way out. */
export async function openFerret(
  opts: GlobalOptions,
  access: StoreAccess,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Ferret> {
  const db = opts.db ?? env.FERRET_DB ?? DEFAULT_DB;
  const postgres = isPostgresUrl(db);
  const where = db === ":memory:" ? db : postgres ? redactUrl(db) : resolve(db);
  if (access === "existing" && db !== ":memory:" && !postgres && !existsSync(db)) {
    throw new InvalidInputError(
      `no knowledge base at ${where}: ingest something first (ferret ingest PATH), or name an existing one with --db FILE or FERRET_DB`,
      { field: "db", file: where },
    );
  }
  try {
    return await openWith(opts, db, env);
  } catch (error) {
    const code = codeOf(error);
    if (code === undefined) throw error;
    const verb = access === "create" ? "create or open" : "open";
    throw new InvalidInputError(
      `cannot ${verb} the knowledge base at ${where} (${code}: ${error instanceof Error ? error.message : String(error)}); ${CHOOSE}`,
      { field: "db", file: where },
      error,
    );
  }
}

function openWith(opts: GlobalOptions, db: string, env: NodeJS.ProcessEnv): Promise<Ferret> {
  return createFerret({
    db,
    embedder: opts.embedder ?? env.FERRET_EMBEDDER,
    model: opts.model ?? env.FERRET_MODEL ?? "offline",
    baseUrl: opts.baseUrl,
    apiKey: opts.apiKey,
    reranker: opts.reranker ?? env.FERRET_RERANKER,
    retrieval: opts.retrieval,
    cache: opts.cache !== false,
    ...(opts.minConfidence !== undefined ? { minConfidence: opts.minConfidence } : {}),
    env,
  });
}

export function print(value: unknown, json: boolean | undefined, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}
