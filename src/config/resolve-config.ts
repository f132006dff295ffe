/**
 * One configuration model for the CLI: flags > environment > config file > defaults. Every layer is checked
 * with the same zod schema, and an error names the flag, the variable or the file and field. The result says
 * where each value came from (`ferret config` prints it).
 */
import { readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { z } from "zod";
import { DEFAULT_DB } from "../ferret.js";
import { DEFAULT_CONFIG_FILE } from "../models/config.js";
import { InvalidInputError } from "../spec/errors.js";
import { askSectionSchema, type ConfigFile, configFileSchema } from "./config-schema.js";
import { DEFAULT_PRESET } from "./presets.js";

export { DEFAULT_DB };
/** A config file is read whole; past this it is refused rather than parsed. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

type Layered =
  | "db"
  | "dbRead"
  | "model"
  | "embedder"
  | "reranker"
  | "baseUrl"
  | "retrieval"
  | "cache"
  | "minConfidence"
  | "as"
  | "roles.planner"
  | "roles.grader"
  | "roles.answerer"
  | "ask.mode"
  | "ask.preset"
  | "ask.maxSteps"
  | "ask.maxToolCalls"
  | "ask.timeoutMs";

interface Setting {
  /** Where it sits in the config file. */
  key: Layered;
  /** The commander property of its flag, if it has one. */
  flag?: string;
  /** The flag as typed. */
  flagName?: string;
  env?: string;
  schema: z.ZodType;
  default?: unknown;
  /** How an environment value is read before it is checked. */
  fromEnv?: (value: string) => unknown;
}

const file = configFileSchema.shape;
const ask = askSectionSchema.shape;
const roles = file.roles.unwrap().shape;

const asNumber = (value: string) => (/^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value);
const asBoolean = (value: string) => {
  const v = value.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off"].includes(v)) return false;
  return value;
};

/** Every setting that can come from a flag, the environment, the file or a default. */
export const SETTINGS: readonly Setting[] = [
  { key: "db", flag: "db", flagName: "--db", env: "FERRET_DB", schema: file.db, default: DEFAULT_DB },
  { key: "dbRead", flag: "dbRead", flagName: "--db-read", env: "FERRET_DB_READ", schema: file.dbRead },
  { key: "model", flag: "model", flagName: "--model", env: "FERRET_MODEL", schema: file.model, default: "offline" },
  { key: "roles.planner", env: "FERRET_PLANNER_MODEL", schema: roles.planner },
  { key: "roles.grader", env: "FERRET_GRADER_MODEL", schema: roles.grader },
  { key: "roles.answerer", env: "FERRET_ANSWERER_MODEL", schema: roles.answerer },
  {
    key: "embedder",
    flag: "embedder",
    flagName: "--embedder",
    env: "FERRET_EMBEDDER",
    schema: file.embedder,
    default: "none",
  },
  { key: "reranker", flag: "reranker", flagName: "--reranker", env: "FERRET_RERANKER", schema: file.reranker },
  // No environment layer: FERRET_BASE_URL is read by openai-compatible models alone (models/resolve.ts), so it
  // never redirects an openai: embedder or model the way --base-url (which applies to both) does.
  { key: "baseUrl", flag: "baseUrl", flagName: "--base-url", schema: file.baseUrl },
  {
    key: "retrieval",
    flag: "retrieval",
    flagName: "--retrieval",
    env: "FERRET_RETRIEVAL",
    schema: file.retrieval,
    default: "flat",
  },
  {
    key: "cache",
    flag: "cache",
    flagName: "--no-cache",
    env: "FERRET_CACHE",
    schema: file.cache,
    default: true,
    fromEnv: asBoolean,
  },
  {
    key: "minConfidence",
    flag: "minConfidence",
    flagName: "--min-confidence",
    env: "FERRET_MIN_CONFIDENCE",
    schema: file.minConfidence,
    fromEnv: asNumber,
  },
  { key: "as", flag: "as", flagName: "--as", env: "FERRET_AS", schema: file.as },
  { key: "ask.mode", flag: "mode", flagName: "--mode", env: "FERRET_MODE", schema: ask.mode, default: "auto" },
  {
    key: "ask.preset",
    flag: "preset",
    flagName: "--preset",
    env: "FERRET_PRESET",
    schema: ask.preset,
    default: DEFAULT_PRESET,
  },
  {
    key: "ask.maxSteps",
    flag: "maxSteps",
    flagName: "--max-steps",
    env: "FERRET_MAX_STEPS",
    schema: ask.maxSteps,
    fromEnv: asNumber,
  },
  {
    key: "ask.maxToolCalls",
    flag: "maxToolCalls",
    flagName: "--max-tool-calls",
    env: "FERRET_MAX_TOOL_CALLS",
    schema: ask.maxToolCalls,
    fromEnv: asNumber,
  },
  {
    key: "ask.timeoutMs",
    flag: "timeoutMs",
    flagName: "--timeout-ms",
    env: "FERRET_TIMEOUT_MS",
    schema: ask.timeoutMs,
    fromEnv: asNumber,
  },
];

export type Origin =
  | { from: "flag"; name: string }
  | { from: "env"; name: string }
  | { from: "file"; name: string; file: string }
  | { from: "default" };

export interface ResolvedSetting {
  value: unknown;
  origin: Origin;
}

export interface ResolvedConfig {
  /** The config file read, absolute; undefined when there was none. */
  file?: string;
  /** The file's content as validated (sections `models`, `serve`, `mcp`, `sources` and the `ask.checkpoints`). */
  content: ConfigFile;
  /** Every layered setting that has a value, by its file key. */
  settings: Partial<Record<Layered, ResolvedSetting>>;
}

function issueText(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  return { field: issue?.path.join(".") ?? "", message: issue?.message ?? "bad value" };
}

function pick(content: ConfigFile, key: Layered): unknown {
  let value: unknown = content;
  for (const part of key.split(".")) value = (value as Record<string, unknown> | undefined)?.[part];
  return value;
}

/** Reads and validates a config file; errors name the file and the field. */
export function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > MAX_CONFIG_BYTES) {
      throw new InvalidInputError(`config file ${path} is ${size} bytes; the limit is ${MAX_CONFIG_BYTES}`, {
        file: path,
      });
    }
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (error instanceof InvalidInputError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    throw new InvalidInputError(`cannot read config file ${path} (${code})`, { file: path }, error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(
      `config file ${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      { file: path },
      error,
    );
  }
  const parsed = configFileSchema.safeParse(value);
  if (!parsed.success) {
    const { field, message } = issueText(parsed.error);
    throw new InvalidInputError(`config file ${path}, field ${field || "(top level)"}: ${message}`, {
      file: path,
      field,
    });
  }
  return parsed.data;
}

export interface ResolveConfigOptions {
  /** Flag values as commander parsed them (already checked by the flag parsers); undefined means not given. */
  flags?: Record<string, unknown>;
  env?: Record<string, string | undefined>;
  /** Folder the default config file is looked for in. */
  cwd?: string;
}

/** Which config file applies: `--config`, then FERRET_CONFIG (both must exist), then ./ferret.config.json if present. */
export function configFilePath(options: ResolveConfigOptions): string | undefined {
  const cwd = options.cwd ?? process.cwd();
  const named = (options.flags?.config as string | undefined) ?? options.env?.FERRET_CONFIG;
  if (named) {
    const path = resolve(cwd, named);
    try {
      statSync(path);
    } catch (error) {
      const via = options.flags?.config ? "--config" : "FERRET_CONFIG";
      throw new InvalidInputError(
        `${via} names ${path}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}); run \`ferret init\` to write one`,
        { file: path, field: via },
        error,
      );
    }
    return path;
  }
  const path = resolve(cwd, DEFAULT_CONFIG_FILE);
  try {
    statSync(path);
    return path;
  } catch {
    return undefined;
  }
}

/** The effective configuration: flags > environment > config file > defaults. */
export function resolveConfig(options: ResolveConfigOptions = {}): ResolvedConfig {
  const env = options.env ?? {};
  const flags = options.flags ?? {};
  const path = configFilePath(options);
  const content = path ? readConfigFile(path) : {};
  const settings: ResolvedConfig["settings"] = {};
  for (const s of SETTINGS) {
    const fromFlag = s.flag !== undefined ? flags[s.flag] : undefined;
    if (fromFlag !== undefined) {
      settings[s.key] = { value: fromFlag, origin: { from: "flag", name: s.flagName ?? s.flag ?? s.key } };
      continue;
    }
    const raw = s.env !== undefined ? env[s.env] : undefined;
    if (raw !== undefined && raw !== "") {
      const parsed = s.schema.safeParse(s.fromEnv ? s.fromEnv(raw) : raw);
      if (!parsed.success || parsed.data === undefined) {
        const message = parsed.success ? "no value" : issueText(parsed.error).message;
        throw new InvalidInputError(`environment variable ${s.env}="${raw.slice(0, 100)}": ${message}`, {
          field: s.env,
        });
      }
      settings[s.key] = { value: parsed.data, origin: { from: "env", name: s.env! } };
      continue;
    }
    const inFile = pick(content, s.key);
    if (inFile !== undefined && path) {
      // A store path in the file is relative to the file, so the file works from any folder.
      const value =
        s.key === "db" && inFile !== ":memory:" && !/^postgres(?:ql)?:\/\//i.test(String(inFile))
          ? resolve(dirname(path), inFile as string)
          : inFile;
      settings[s.key] = { value, origin: { from: "file", name: s.key, file: path } };
      continue;
    }
    if (s.default !== undefined) settings[s.key] = { value: s.default, origin: { from: "default" } };
  }
  return { file: path, content, settings };
}

/** A setting's value, typed by the caller. */
export function settingValue<T>(config: ResolvedConfig, key: Layered): T | undefined {
  return config.settings[key]?.value as T | undefined;
}

/** Where a value came from, in words: `--db`, `FERRET_DB`, `ferret.config.json (db)`, `default`. */
export function describeOrigin(origin: Origin): string {
  switch (origin.from) {
    case "flag":
      return `flag ${origin.name}`;
    case "env":
      return `env ${origin.name}`;
    case "file":
      return `${origin.file} (${origin.name})`;
    default:
      return "default";
  }
}
