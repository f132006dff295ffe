import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { parseRate } from "../keys/api-keys.js";
import { InvalidInputError } from "../spec/errors.js";

/** The server maxima of a run: a request may ask for less, never more. */
export interface RunMaxima {
  maxSteps: number;
  maxToolCalls: number;
  maxTokens: number;
  maxCostUsd: number;
  timeoutMs: number;
}

export interface JwtConfig {
  /** HS256 shared secret. */
  secret?: string;
  /** JWKS URL for RS/ES/EdDSA tokens. */
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
  /** Claim names: tenant (default `tenant`), user (default `sub`), roles (default `roles`, a list or a comma string). */
  claims: { tenant: string; user: string; roles: string };
}

export interface ServeConfig {
  host: string;
  port: number;
  /** No keys at all: every request acts as the local owner. Loopback only, with a warning on every start. */
  insecureLocal: boolean;
  /** Origins allowed by CORS (exact match); empty allows none. */
  corsOrigins: string[];
  /** Log question and answer text (off by default). */
  logContent: boolean;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** Largest JSON request body. */
  maxBodyBytes: number;
  /** Largest multipart upload (all files together) and most files per upload. */
  maxUploadBytes: number;
  maxUploadFiles: number;
  /** Requests doing work (asks, searches, uploads) at once, and how many may wait; beyond that, 503. */
  concurrency: number;
  queue: number;
  /** How long in-flight requests may finish after SIGTERM before their runs are aborted. */
  shutdownGraceMs: number;
  /** How long a paused run waits for a decision before it continues. */
  checkpointTimeoutMs: number;
  maxima: RunMaxima;
  /** Daily spend cap in USD for every tenant, unless `tenants` names its own. */
  dailyUsd?: number;
  tenants: Record<string, { dailyUsd?: number }>;
  /** Rate limit for principals without a key of their own (JWT, insecure-local): requests per period. */
  defaultRate?: { requests: number; perMs: number };
  /** Roles (besides `*`) that may upload and delete documents. */
  writeRoles: string[];
  jwt?: JwtConfig;
}

export const DEFAULT_SERVE_CONFIG: ServeConfig = {
  host: "127.0.0.1",
  port: 8787,
  insecureLocal: false,
  corsOrigins: [],
  logContent: false,
  logLevel: "info",
  maxBodyBytes: 1024 * 1024,
  maxUploadBytes: 50 * 1024 * 1024,
  maxUploadFiles: 100,
  concurrency: 32,
  queue: 1024,
  shutdownGraceMs: 10_000,
  checkpointTimeoutMs: 60_000,
  maxima: { maxSteps: 8, maxToolCalls: 24, maxTokens: 200_000, maxCostUsd: 1, timeoutMs: 120_000 },
  tenants: {},
  writeRoles: ["writer"],
};

const positive = z.number().positive();
const whole = z.number().int().positive();

/** The `serve` section of `ferret.config.json`. */
export const serveFileSchema = z
  .object({
    host: z.string().min(1).optional(),
    port: z.number().int().min(0).max(65_535).optional(),
    corsOrigins: z.array(z.string().url()).optional(),
    logContent: z.boolean().optional(),
    logLevel: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
    maxBodyBytes: whole.optional(),
    maxUploadBytes: whole.optional(),
    maxUploadFiles: whole.optional(),
    concurrency: whole.optional(),
    queue: z.number().int().min(0).optional(),
    shutdownGraceMs: z.number().int().min(0).optional(),
    checkpointTimeoutMs: whole.optional(),
    maxima: z
      .object({
        maxSteps: whole.optional(),
        maxToolCalls: whole.optional(),
        maxTokens: whole.optional(),
        maxCostUsd: positive.optional(),
        timeoutMs: whole.optional(),
      })
      .strict()
      .optional(),
    dailyUsd: z.number().min(0).optional(),
    tenants: z.record(z.string(), z.object({ dailyUsd: z.number().min(0).optional() }).strict()).optional(),
    defaultRate: z.string().optional(),
    writeRoles: z.array(z.string().min(1)).optional(),
    jwt: z
      .object({
        secretEnv: z.string().min(1).optional(),
        jwksUrl: z.string().url().optional(),
        issuer: z.string().optional(),
        audience: z.string().optional(),
        claims: z
          .object({ tenant: z.string().optional(), user: z.string().optional(), roles: z.string().optional() })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type ServeFileConfig = z.infer<typeof serveFileSchema>;

/** Reads the `serve` section of a config file (none when the file or the section is missing). */
export function readServeSection(file: string): ServeFileConfig {
  if (!existsSync(file)) return {};
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (cause) {
    throw new InvalidInputError(`${file} is not valid JSON`, { file }, cause);
  }
  const section = (value as { serve?: unknown } | null)?.serve;
  if (section === undefined) return {};
  const parsed = serveFileSchema.safeParse(section);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = `serve.${issue?.path.join(".") ?? ""}`;
    throw new InvalidInputError(`${file}, ${field}: ${issue?.message ?? "bad value"}`, { file, field });
  }
  return parsed.data;
}

const number = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new InvalidInputError(`${name} must be a number, got "${value}"`, { field: name });
  return n;
};

/**
 * The server's settings: flags first, then the environment (`FERRET_HOST`, `FERRET_PORT`, `FERRET_CORS_ORIGINS`,
 * `FERRET_DAILY_USD`, `FERRET_JWT_SECRET`, `FERRET_JWKS_URL`, `FERRET_LOG_LEVEL`), then the config file's
 * `serve` section, then the defaults.
 */
export function resolveServeConfig(options: {
  flags?: Partial<Omit<ServeConfig, "maxima">> & { maxima?: Partial<RunMaxima> };
  env?: Record<string, string | undefined>;
  file?: ServeFileConfig;
}): ServeConfig {
  const flags = options.flags ?? {};
  const env = options.env ?? {};
  const file = options.file ?? {};
  const d = DEFAULT_SERVE_CONFIG;
  const jwtSecret = env.FERRET_JWT_SECRET || (file.jwt?.secretEnv ? env[file.jwt.secretEnv] : undefined);
  const jwksUrl = flags.jwt?.jwksUrl ?? env.FERRET_JWKS_URL ?? file.jwt?.jwksUrl;
  const jwt: JwtConfig | undefined =
    flags.jwt ??
    (jwtSecret || jwksUrl
      ? {
          ...(jwtSecret ? { secret: jwtSecret } : {}),
          ...(jwksUrl ? { jwksUrl } : {}),
          ...(file.jwt?.issuer ? { issuer: file.jwt.issuer } : {}),
          ...(file.jwt?.audience ? { audience: file.jwt.audience } : {}),
          claims: {
            tenant: file.jwt?.claims?.tenant ?? "tenant",
            user: file.jwt?.claims?.user ?? "sub",
            roles: file.jwt?.claims?.roles ?? "roles",
          },
        }
      : undefined);
  const corsEnv = env.FERRET_CORS_ORIGINS?.split(",")
    .map((o) => o.trim())
    .filter(Boolean);
  const defaultRate = flags.defaultRate ?? (file.defaultRate ? parseRate(file.defaultRate) : undefined);
  const dailyUsd = flags.dailyUsd ?? number("FERRET_DAILY_USD", env.FERRET_DAILY_USD) ?? file.dailyUsd;
  return {
    host: flags.host ?? env.FERRET_HOST ?? file.host ?? d.host,
    port: flags.port ?? number("FERRET_PORT", env.FERRET_PORT) ?? file.port ?? d.port,
    insecureLocal: flags.insecureLocal ?? false,
    corsOrigins: flags.corsOrigins ?? corsEnv ?? file.corsOrigins ?? d.corsOrigins,
    logContent: flags.logContent ?? file.logContent ?? d.logContent,
    logLevel:
      flags.logLevel ?? (env.FERRET_LOG_LEVEL as ServeConfig["logLevel"] | undefined) ?? file.logLevel ?? d.logLevel,
    maxBodyBytes: flags.maxBodyBytes ?? file.maxBodyBytes ?? d.maxBodyBytes,
    maxUploadBytes: flags.maxUploadBytes ?? file.maxUploadBytes ?? d.maxUploadBytes,
    maxUploadFiles: flags.maxUploadFiles ?? file.maxUploadFiles ?? d.maxUploadFiles,
    concurrency: flags.concurrency ?? file.concurrency ?? d.concurrency,
    queue: flags.queue ?? file.queue ?? d.queue,
    shutdownGraceMs: flags.shutdownGraceMs ?? file.shutdownGraceMs ?? d.shutdownGraceMs,
    checkpointTimeoutMs: flags.checkpointTimeoutMs ?? file.checkpointTimeoutMs ?? d.checkpointTimeoutMs,
    maxima: { ...d.maxima, ...file.maxima, ...flags.maxima },
    ...(dailyUsd !== undefined ? { dailyUsd } : {}),
    tenants: flags.tenants ?? file.tenants ?? d.tenants,
    ...(defaultRate ? { defaultRate } : {}),
    writeRoles: flags.writeRoles ?? file.writeRoles ?? d.writeRoles,
    ...(jwt ? { jwt } : {}),
  };
}

/** Hosts that only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
