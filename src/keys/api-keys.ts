import { createHash, randomBytes } from "node:crypto";
import { InvalidInputError, StoreError } from "../spec/errors.js";
import type { ApiKeyRecord, KeyStoreV1, RateLimit } from "../spec/keys.js";

/** A key as listed: everything but its hash. */
export type ApiKeyInfo = Omit<ApiKeyRecord, "hash">;

export interface CreateKeyOptions {
  tenant: string;
  user: string;
  roles: string[];
  label?: string;
  rate?: RateLimit;
  dailyUsd?: number;
}

/** A new key: the secret is shown this once and never stored. */
export interface CreatedKey {
  key: string;
  info: ApiKeyInfo;
}

export interface ApiKeys {
  create(options: CreateKeyOptions): Promise<CreatedKey>;
  list(options?: { tenant?: string }): Promise<ApiKeyInfo[]>;
  /** Revokes the key: it authenticates nothing from the next request on. False when no live key has this id. */
  revoke(id: string): Promise<boolean>;
  /** The live key a presented secret names; undefined when it is malformed, unknown or revoked. */
  verify(secret: string): Promise<ApiKeyInfo | undefined>;
}

/** `fk_<12 hex id>_<43 base64url characters>`: 32 random bytes of secret. */
const KEY = /^fk_([0-9a-f]{12})_[A-Za-z0-9_-]{43}$/;
const NAME = /^[^\s:,]{1,128}$/;
const ROLE = /^[^\s:,]{1,64}$/;

export function hashKey(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

function infoOf(record: ApiKeyRecord): ApiKeyInfo {
  const { hash: _hash, ...info } = record;
  return info;
}

function check(options: CreateKeyOptions): void {
  if (!NAME.test(options.tenant))
    throw new InvalidInputError(`tenant must be 1-128 characters without spaces, ':' or ','`, { field: "tenant" });
  if (!NAME.test(options.user))
    throw new InvalidInputError(`user must be 1-128 characters without spaces, ':' or ','`, { field: "user" });
  for (const role of options.roles) {
    if (!ROLE.test(role))
      throw new InvalidInputError(`role "${role}" must be 1-64 characters without spaces, ':' or ','`, {
        field: "roles",
      });
  }
  const rate = options.rate;
  if (
    rate &&
    (!Number.isInteger(rate.requests) || rate.requests < 1 || !Number.isInteger(rate.perMs) || rate.perMs < 1)
  )
    throw new InvalidInputError("rate must be a whole number of requests (at least 1) per period", { field: "rate" });
  if (options.dailyUsd !== undefined && (!Number.isFinite(options.dailyUsd) || options.dailyUsd < 0))
    throw new InvalidInputError("dailyUsd must be a number of dollars, 0 or more", { field: "dailyUsd" });
}

/** API keys over a store's key capability: random secrets, stored as their SHA-256. */
export function createApiKeys(options: {
  store: KeyStoreV1 | undefined;
  provider: string;
  now?: () => number;
}): ApiKeys {
  const now = options.now ?? Date.now;
  const keys = (): KeyStoreV1 => {
    if (!options.store) throw new StoreError(`The ${options.provider} store keeps no API keys.`);
    return options.store;
  };
  return {
    async create(opts) {
      const roles = [...new Set(opts.roles.map((r) => r.trim()).filter(Boolean))];
      check({ ...opts, roles });
      const id = randomBytes(6).toString("hex");
      const key = `fk_${id}_${randomBytes(32).toString("base64url")}`;
      const record: ApiKeyRecord = {
        id,
        hash: hashKey(key),
        tenant: opts.tenant,
        user: opts.user,
        roles,
        createdAt: new Date(now()).toISOString(),
        ...(opts.label !== undefined ? { label: opts.label } : {}),
        ...(opts.rate !== undefined ? { rate: opts.rate } : {}),
        ...(opts.dailyUsd !== undefined ? { dailyUsd: opts.dailyUsd } : {}),
      };
      await keys().putKey(record);
      return { key, info: infoOf(record) };
    },
    async list(opts = {}) {
      return (await keys().listKeys(opts)).map(infoOf);
    },
    revoke(id) {
      return keys().revokeKey(id, new Date(now()).toISOString());
    },
    async verify(secret) {
      if (typeof secret !== "string" || !KEY.test(secret)) return undefined;
      const record = await keys().keyByHash(hashKey(secret));
      if (!record || record.revokedAt !== undefined) return undefined;
      return infoOf(record);
    },
  };
}

/** `60/min`, `10/s`, `1000/hour`, `5000/day` as a rate limit. */
export function parseRate(value: string): RateLimit {
  const match = /^(\d{1,9})\/(s|sec|second|m|min|minute|h|hour|d|day)$/.exec(value.trim());
  const unit = match?.[2];
  const requests = Number(match?.[1]);
  if (!match || unit === undefined || requests < 1)
    throw new InvalidInputError(`rate must look like 60/min, 10/s, 1000/hour or 5000/day (got "${value}")`, {
      field: "rate",
    });
  const perMs = unit.startsWith("s")
    ? 1000
    : unit.startsWith("m")
      ? 60_000
      : unit.startsWith("h")
        ? 3_600_000
        : 86_400_000;
  return { requests, perMs };
}
