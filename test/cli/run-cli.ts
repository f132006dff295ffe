import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach } from "vitest";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const BIN = join(ROOT, "bin", "ferret.js");
export const ACME = join(ROOT, "examples", "acme");
export const INGEST_FIXTURES = join(ROOT, "test", "fixtures", "ingest");
export const CLI_FIXTURES = join(ROOT, "test", "fixtures", "cli");

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The test process's environment without ferret's own settings, so every run names its db explicitly. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("FERRET_")) delete env[key];
  return env;
}

export interface CliOptions {
  env?: NodeJS.ProcessEnv;
  /** Working folder (default: the repository root). */
  cwd?: string;
  /** Run as this user and group (a root test process can drop to an unprivileged user). */
  user?: { uid: number; gid: number };
  /** Close the reading end of the child's standard output at once, as `| head -0` would. */
  closeStdout?: boolean;
}

/** Runs `node bin/ferret.js ...args` as a real process (from the repository root by default) and collects its output. */
export function ferret(args: string[], options: CliOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...cleanEnv(), ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
      ...(options.user ?? {}),
    });
    if (options.closeStdout) child.stdout.destroy();
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Runs a command that must succeed and parses its `--json` output. */
export async function ferretJson<T>(args: string[]): Promise<T> {
  const run = await ferret([...args, "--json"]);
  if (run.code !== 0) throw new Error(`ferret ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

type Scope = "test" | "file";
const dirs: Record<Scope, string[]> = { test: [], file: [] };
const removeAll = (list: string[]) => Promise.all(list.splice(0).map((d) => rm(d, { recursive: true, force: true })));
afterEach(() => removeAll(dirs.test));
afterAll(() => removeAll(dirs.file));

/** A fresh temporary folder, removed after the current test (scope `test`) or after the test file (`file`). */
export async function tempDir(prefix = "ferret-cli-", scope: Scope = "test"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs[scope].push(dir);
  return dir;
}

/** Copies files from test/fixtures/ingest into a new folder `name` under `parent`. */
export async function fixtureFolder(parent: string, name: string, files: string[]): Promise<string> {
  const dir = join(parent, name);
  for (const f of files) await cp(join(INGEST_FIXTURES, f), join(dir, f));
  return dir;
}

export interface AcmeQuestion {
  id: string;
  question: string;
  type: string;
  answer_keywords: string[][];
  gold_sources: string[];
  expect_refusal: boolean;
  principal?: { tenant: string; user: string; roles: string[] };
  must_not_contain?: string[];
}

export async function acmeQuestions(): Promise<AcmeQuestion[]> {
  const text = await readFile(join(ACME, "questions.jsonl"), "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as AcmeQuestion);
}

/** `--as` value for a question's principal. */
export function asFlag(p: { tenant: string; user: string; roles: string[] }): string {
  return `${p.tenant}:${p.user}:${p.roles.join(",")}`;
}

/** Ingests examples/acme for tenant acme (the tenant its questions' principals use) into a new db; returns the db path. */
export async function acmeDb(scope: Scope = "test"): Promise<string> {
  const db = join(await tempDir("ferret-acme-", scope), "ferret.db");
  const run = await ferret(["ingest", ACME, "--tenant", "acme", "--db", db, "--json"]);
  if (run.code !== 0) throw new Error(`ingest examples/acme exited ${run.code}: ${run.stderr}`);
  return db;
}

/** Whitespace-normalised text, for comparing quotes with passages. */
export const squash = (text: string) => text.replace(/\s+/g, " ").trim();
