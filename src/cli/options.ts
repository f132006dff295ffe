import type { Command } from "commander";
import { createFerret, DEFAULT_DB, type Ferret } from "../ferret.js";
import type { Principal } from "../spec/principal.js";
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
}

export function addGlobalOptions(cmd: Command): Command {
  return cmd
    .option("--db <file>", `SQLite store (env FERRET_DB; default ${DEFAULT_DB})`)
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
    .option("--retrieval <shape>", "flat | hierarchical | auto (document pass first on large stores)")
    .option("--no-cache", "do not reuse results of repeated searches")
    .option("--json", "machine-readable output");
}

export function principalOf(opts: GlobalOptions): Principal | undefined {
  return opts.as ? parsePrincipal(opts.as) : undefined;
}

export function openFerret(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): Promise<Ferret> {
  return createFerret({
    db: opts.db ?? env.FERRET_DB ?? DEFAULT_DB,
    embedder: opts.embedder ?? env.FERRET_EMBEDDER,
    model: opts.model ?? env.FERRET_MODEL ?? "offline",
    baseUrl: opts.baseUrl,
    apiKey: opts.apiKey,
    reranker: opts.reranker ?? env.FERRET_RERANKER,
    retrieval: opts.retrieval,
    cache: opts.cache !== false,
    env,
  });
}

export function print(value: unknown, json: boolean | undefined, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}
