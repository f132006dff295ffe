/**
 * The checks of `ferret doctor`. Each says what it found and, when something is wrong, what to do. Network
 * checks (model, embedder) run under a time limit: a server that never answers is a failed check, not a hang.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { generateText } from "ai";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { type ResolvedConfig, settingValue } from "../config/resolve-config.js";
import { resolveEmbedder } from "../embedders/resolve.js";
import { resolveModel } from "../models/resolve.js";
import { SCHEMA_VERSION } from "../stores/sqlite/schema.js";
import { requireUsearch } from "../util/optional-import.js";

export type CheckStatus = "ok" | "warn" | "fail" | "skip";

export interface CheckResult {
  name: string;
  status: CheckStatus;
  /** What was found. */
  detail: string;
  /** What to do about a `fail` or `warn`. */
  fix?: string;
  ms: number;
}

export interface DoctorOptions {
  config: ResolvedConfig;
  /** The store the commands would use. */
  db: string;
  apiKey?: string;
  env: Record<string, string | undefined>;
  /** Limit of each network check. */
  timeoutMs: number;
}

const require = createRequire(import.meta.url);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function timed(name: string, run: () => Promise<Omit<CheckResult, "name" | "ms">>): Promise<CheckResult> {
  const started = performance.now();
  try {
    return { name, ...(await run()), ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { name, status: "fail", detail: messageOf(error), ms: Math.round(performance.now() - started) };
  }
}

/** Runs `work` with an abort signal that fires after `ms`; a late answer is a failure naming the limit. */
async function withTimeout<T>(ms: number, what: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`${what} did not answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** `>=20.19` from package.json's engines, compared with the running Node. */
export function checkNode(version = process.versions.node): Omit<CheckResult, "ms"> {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    engines?: { node?: string };
  };
  const wanted = pkg.engines?.node ?? ">=20.19";
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const match = /(\d+)\.(\d+)/.exec(wanted);
  const [needMajor, needMinor] = match ? [Number(match[1]), Number(match[2])] : [20, 19];
  const ok = major > needMajor || (major === needMajor && minor >= needMinor);
  return ok
    ? { name: "node", status: "ok", detail: `Node ${version} (needs ${wanted})` }
    : {
        name: "node",
        status: "fail",
        detail: `Node ${version}, but ferret needs ${wanted}`,
        fix: `install Node ${needMajor}.${needMinor} or newer (https://nodejs.org, or nvm install ${needMajor})`,
      };
}

function checkSqlite(): Promise<CheckResult> {
  return timed("sqlite", async () => {
    const db = new Database(":memory:");
    try {
      sqliteVec.load(db);
      db.exec("CREATE VIRTUAL TABLE doctor_fts USING fts5(text)");
      const { sqlite, vec } = db.prepare("SELECT sqlite_version() AS sqlite, vec_version() AS vec").get() as {
        sqlite: string;
        vec: string;
      };
      return { status: "ok", detail: `better-sqlite3 with SQLite ${sqlite}, FTS5, sqlite-vec ${vec}` };
    } finally {
      db.close();
    }
  }).then((r) =>
    r.status === "fail"
      ? {
          ...r,
          fix: "reinstall the native modules for this Node: npm rebuild better-sqlite3 (needs a C++ toolchain when no prebuilt binary fits)",
        }
      : r,
  );
}

function checkUsearch(): Promise<CheckResult> {
  return timed("usearch", async () => {
    const usearch = requireUsearch();
    if (!usearch)
      return {
        status: "skip",
        detail: "usearch (optional) is not installed: vector search is exact (sqlite-vec), slower on large stores",
        fix: "npm install usearch, for an HNSW index once a store holds many vectors",
      };
    const { Index, MetricKind, ScalarKind } = usearch;
    const index = new Index({
      dimensions: 4,
      metric: MetricKind.Cos,
      quantization: ScalarKind.F32,
      connectivity: 16,
      expansion_add: 64,
      expansion_search: 32,
      multi: false,
    });
    index.add(1n, new Float32Array([1, 0, 0, 0]));
    return { status: "ok", detail: `HNSW index loads (${index.size()} vector added)` };
  }).then((r) =>
    r.status === "fail"
      ? { ...r, fix: "npm rebuild usearch; only needed for vector search over large stores (embedder other than none)" }
      : r,
  );
}

/** The nearest folder that exists above `path`. */
function existingAncestor(path: string): string {
  let dir = dirname(path);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

export function checkStore(db: string): Promise<CheckResult> {
  return timed("store", async () => {
    if (db === ":memory:") return { status: "ok", detail: "in memory (nothing kept)" };
    const path = resolve(db);
    if (!existsSync(path)) {
      const parent = existingAncestor(path);
      try {
        accessSync(parent, constants.W_OK);
      } catch {
        return {
          status: "fail",
          detail: `no store at ${path}, and ${parent} is not writable`,
          fix: "name a writable location with --db FILE, FERRET_DB or `db` in ferret.config.json",
        };
      }
      return {
        status: "warn",
        detail: `no store yet at ${path} (the folder can be written)`,
        fix: "create it with `ferret init` or `ferret ingest PATH`",
      };
    }
    if (!statSync(path).isFile()) {
      return { status: "fail", detail: `${path} is not a file`, fix: "name a file with --db FILE" };
    }
    const sqlite = new Database(path, { readonly: true, fileMustExist: true });
    let version: number | undefined;
    try {
      const meta = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
      const row = meta
        ? (sqlite.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined)
        : undefined;
      version = row ? Number(row.value) : undefined;
    } finally {
      sqlite.close();
    }
    let writable = true;
    try {
      accessSync(path, constants.W_OK);
      accessSync(dirname(path), constants.W_OK);
    } catch {
      writable = false;
    }
    if (version === undefined) {
      return {
        status: "fail",
        detail: `${path} is not a ferret store (no schema version)`,
        fix: "name the right file with --db, or move this one away and run `ferret ingest`",
      };
    }
    if (version > SCHEMA_VERSION) {
      return {
        status: "fail",
        detail: `${path} has schema version ${version}, newer than this ferret (${SCHEMA_VERSION})`,
        fix: "upgrade ferret (npm install ferret@latest)",
      };
    }
    const rw = writable ? "writable" : "read-only (search, ask and trace work; ingest does not)";
    if (version < SCHEMA_VERSION) {
      return {
        status: "warn",
        detail: `${path}: schema version ${version}, current is ${SCHEMA_VERSION}; ${rw}`,
        fix: writable
          ? "it is upgraded on the next write (`ferret ingest`); back the file up first if you keep older ferrets"
          : "make the file and its folder writable so the next ingest can upgrade it",
      };
    }
    return {
      status: writable ? "ok" : "warn",
      detail: `${path}: schema version ${version} (current), ${rw}`,
      ...(writable ? {} : { fix: "make the file and its folder writable to ingest into it" }),
    };
  });
}

/** `local:` embedders and rerankers need the optional model runtime. */
function checkLocalRuntime(config: ResolvedConfig): Promise<CheckResult> {
  return timed("local model runtime", async () => {
    const users = (["embedder", "reranker"] as const).filter((k) =>
      settingValue<string>(config, k)?.startsWith("local:"),
    );
    let found = true;
    try {
      require.resolve("@huggingface/transformers");
    } catch {
      found = false;
    }
    if (users.length === 0) {
      return { status: "skip", detail: `not needed (no local: embedder or reranker)${found ? "; installed" : ""}` };
    }
    return found
      ? { status: "ok", detail: "@huggingface/transformers is installed" }
      : {
          status: "fail",
          detail: `the ${users.join(" and ")} is local:, but @huggingface/transformers is not installed`,
          fix: "npm install @huggingface/transformers, or choose --embedder none / an API embedder",
        };
  });
}

function checkEmbedder(options: DoctorOptions): Promise<CheckResult> {
  const spec = settingValue<string>(options.config, "embedder");
  return timed("embedder", async () => {
    if (!spec || spec === "none") return { status: "ok", detail: "none: keyword search (BM25), nothing to reach" };
    const embedder = await resolveEmbedder({
      spec,
      baseUrl: settingValue<string>(options.config, "baseUrl"),
      apiKey: options.apiKey,
      env: options.env,
      onWarning: () => {},
    });
    if (!embedder) return { status: "ok", detail: "none" };
    const [vector] = await withTimeout(options.timeoutMs, `embedder ${spec}`, (signal) =>
      embedder.embed(["ferret doctor"], { signal }),
    );
    return { status: "ok", detail: `${embedder.id} answered (${vector?.length ?? 0} dimensions)` };
  }).then((r) =>
    r.status === "fail"
      ? {
          ...r,
          fix: `check that the ${spec} server runs and its URL and key are set (FERRET_EMBED_BASE_URL, FERRET_EMBED_API_KEY or OPENAI_API_KEY); or use --embedder none`,
        }
      : r,
  );
}

/** The models to reach: `model` and each role's. */
function modelSpecs(config: ResolvedConfig): string[] {
  const specs = [
    settingValue<string>(config, "model") ?? "offline",
    settingValue<string>(config, "roles.planner"),
    settingValue<string>(config, "roles.grader"),
    settingValue<string>(config, "roles.answerer"),
  ].filter((s): s is string => s !== undefined);
  return [...new Set(specs)];
}

export function checkModel(spec: string, options: DoctorOptions): Promise<CheckResult> {
  return timed(`model ${spec}`, async () => {
    if (spec === "offline") return { status: "ok", detail: "offline engine: deterministic, no network" };
    const resolved = resolveModel({
      spec,
      baseUrl: settingValue<string>(options.config, "baseUrl"),
      apiKey: options.apiKey,
      env: options.env,
      configFile: options.config.file,
    });
    const reply = await withTimeout(options.timeoutMs, spec, (abortSignal) =>
      generateText({
        model: resolved.model,
        prompt: "Reply with the single word OK.",
        maxOutputTokens: 16,
        maxRetries: 0,
        abortSignal,
      }),
    );
    return { status: "ok", detail: `${resolved.id} answered (${reply.usage.outputTokens ?? 0} output tokens)` };
  }).then((r) =>
    r.status === "fail"
      ? {
          ...r,
          fix: spec.startsWith("ollama:")
            ? `start Ollama (ollama serve) and pull the model (ollama pull ${spec.slice(7)}); set OLLAMA_BASE_URL or --base-url if it runs elsewhere`
            : "check the base URL (--base-url, FERRET_BASE_URL, models entry) and the API key variable; or use --model offline",
        }
      : r,
  );
}

function checkChromium(env: Record<string, string | undefined>): Promise<CheckResult> {
  return timed("chromium (optional: UI tests)", async () => {
    const path = env.FERRET_CHROMIUM ?? "/usr/bin/chromium";
    return existsSync(path)
      ? { status: "ok", detail: path }
      : {
          status: "warn",
          detail: `no Chromium at ${path}; only the browser tests of the web UI need it`,
          fix: "apt-get install -y chromium, or set FERRET_CHROMIUM to its path",
        };
  });
}

function checkPostgres(): Promise<CheckResult> {
  return timed("postgresql (optional)", async () => {
    const run = spawnSync("pg_config", ["--sharedir"], { encoding: "utf8", timeout: 5000 });
    if (run.error || run.status !== 0) {
      return {
        status: "skip",
        detail: "pg_config not found; only a PostgreSQL store needs it (the embedded SQLite store does not)",
        fix: "install PostgreSQL with its server development files (apt-get install postgresql postgresql-server-dev-all)",
      };
    }
    const share = run.stdout.trim();
    const vector = join(share, "extension", "vector.control");
    return existsSync(vector)
      ? { status: "ok", detail: `PostgreSQL at ${share}, pgvector installed` }
      : {
          status: "warn",
          detail: `PostgreSQL at ${share}, but pgvector is not installed`,
          fix: "install pgvector (apt-get install postgresql-NN-pgvector, or build it from github.com/pgvector/pgvector)",
        };
  });
}

/** Every check, in order. Independent network checks run at the same time. */
export async function runDoctor(options: DoctorOptions): Promise<CheckResult[]> {
  const node: CheckResult = { ...checkNode(), ms: 0 };
  const local = [await checkSqlite(), await checkUsearch(), await checkStore(options.db)];
  const network = await Promise.all([
    checkLocalRuntime(options.config),
    checkEmbedder(options),
    ...modelSpecs(options.config).map((spec) => checkModel(spec, options)),
  ]);
  const optional = [await checkChromium(options.env), await checkPostgres()];
  return [node, ...local, ...network, ...optional];
}
