import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { ferretOptionsFrom } from "../config/ferret-options.js";
import { resolveConfig, settingValue } from "../config/resolve-config.js";
import { createFerret, DEFAULT_DB, type Ferret } from "../ferret.js";
import { DEFAULT_CONFIG_FILE } from "../models/config.js";
import { InvalidInputError } from "../spec/errors.js";
import type { Principal } from "../spec/principal.js";
import { redactUrl } from "../stores/postgres/db.js";
import { isPostgresUrl } from "../stores/postgres/index.js";
import { httpUrl, oneOf, principalSpec } from "./flag-parsers.js";
import { localOwnerOf, parsePrincipal } from "./principal.js";

/** Options every command takes. */
export interface GlobalOptions {
  db?: string;
  dbRead?: string;
  config?: string;
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

/** The options every command takes, defined once on the program (so `ferret --help` lists them once). */
export function addGlobalOptions(program: Command): Command {
  return program
    .option("--db <file|url>", `SQLite file or postgres:// URL (env FERRET_DB; default ${DEFAULT_DB})`)
    .option("--db-read <url>", "read-only PostgreSQL replica of --db: searches read there (env FERRET_DB_READ)")
    .option("--config <file>", `config file (env FERRET_CONFIG; default ${DEFAULT_CONFIG_FILE} when present)`)
    .option(
      "--embedder <spec>",
      "none | local:<model> | openai:<model> | ollama:<model> | openai-compatible:<model> (env FERRET_EMBEDDER)",
    )
    .option(
      "--model <spec>",
      "offline | openai:<m> | anthropic:<m> | ollama:<m> | openai-compatible:<m> (env FERRET_MODEL)",
    )
    .option("--base-url <url>", "base URL of the model and embedder server (openai-compatible, ollama)", httpUrl)
    .option("--api-key <key>", "API key (prefer the provider's environment variable)")
    .option("--as <principal>", "act as TENANT:USER:ROLE,ROLE (env FERRET_AS)", principalSpec)
    .option("--reranker <spec>", "re-rank evidence before answering: lexical | local:<model> (env FERRET_RERANKER)")
    .option(
      "--retrieval <shape>",
      "flat | hierarchical | auto (document pass first on large stores; env FERRET_RETRIEVAL)",
      oneOf(["flat", "hierarchical", "auto"] as const),
    )
    .option("--no-cache", "do not reuse results of repeated searches (env FERRET_CACHE=false)")
    .option("--json", "machine-readable output");
}

/**
 * Global options may come before or after the command (`ferret --db x search q`, `ferret search q --db x`):
 * commander keeps them on the program, and this copies the ones given on the command line to the command
 * that runs, so its action sees one set of flags. Defaults are not copied: what was not given stays unset,
 * for the configuration to fill in from the environment, the config file or its defaults.
 */
export function shareGlobalOptions(program: Command, actionCommand: Command): void {
  for (const [key, value] of Object.entries(program.opts())) {
    if (program.getOptionValueSource(key) !== "cli") continue;
    if (actionCommand.getOptionValue(key) === undefined) actionCommand.setOptionValue(key, value);
  }
}

/** A command that takes the global options: its help points at them instead of repeating them. */
export function usesGlobalOptions(cmd: Command): Command {
  return cmd.addHelpText(
    "after",
    "\nGlobal options (--db, --config, --model, --as, --json, ...): see `ferret --help`.",
  );
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
  const config = resolveConfig({ flags: { ...opts }, env });
  const db = opts.db ?? settingValue<string>(config, "db") ?? DEFAULT_DB;
  const postgres = isPostgresUrl(db);
  const where = db === ":memory:" ? db : postgres ? redactUrl(db) : resolve(db);
  if (access === "existing" && db !== ":memory:" && !postgres && !existsSync(db)) {
    throw new InvalidInputError(
      `no knowledge base at ${where}: create one with \`ferret init\` or \`ferret ingest PATH\`, or name an existing one with --db FILE or FERRET_DB`,
      { field: "db", file: where },
    );
  }
  try {
    // The local CLI acts as the owner of the file when `--as` names nobody (see `localOwnerOf`).
    return await createFerret({
      ...ferretOptionsFrom(config, { db, apiKey: opts.apiKey, env }),
      principal: localOwnerOf,
    });
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

export function print(value: unknown, json: boolean | undefined, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}
