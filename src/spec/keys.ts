import type { KeyCapabilityV1, StoreBaseV1 } from "./store.js";

/**
 * API keys and spend records: optional capabilities of a store, reached as `store.keys` and `store.spend`
 * (see `keyStoreOf`, `spendStoreOf`). A server maps each key to a principal and keeps each tenant's daily
 * spend where every process sharing the store sees it.
 */

/** A token bucket: `requests` per `perMs` milliseconds, refilled continuously. */
export interface RateLimit {
  requests: number;
  perMs: number;
}

/** One API key as the store keeps it: never the secret itself, only its SHA-256. */
export interface ApiKeyRecord {
  /** Public id, shown in listings and part of the key (`fk_<id>_<secret>`). */
  id: string;
  /** SHA-256 (hex) of the whole key. */
  hash: string;
  tenant: string;
  user: string;
  roles: string[];
  label?: string;
  rate?: RateLimit;
  /** The most this key may spend per UTC day, in USD. */
  dailyUsd?: number;
  /** ISO time. */
  createdAt: string;
  /** ISO time; a revoked key authenticates nothing from the next request on. */
  revokedAt?: string;
}

export interface KeyStoreV1 {
  readonly specificationVersion: "v1";
  /** Adds a key; an id or hash already present is a `StoreConstraintError`. */
  putKey(key: ApiKeyRecord): Promise<void>;
  /** The key with this hash, revoked or not (the caller decides what a revoked key means). */
  keyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  /** Keys of one tenant, or of every tenant, oldest first. */
  listKeys(options?: { tenant?: string }): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked at `at`; false when no such key (or already revoked). */
  revokeKey(id: string, at: string): Promise<boolean>;
}

/** One addition to a day's spend. */
export interface SpendEntry {
  tenant: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  /** The key that spent it (`""` for calls made without one). */
  keyId: string;
  usd: number;
}

export interface SpendStoreV1 {
  readonly specificationVersion: "v1";
  /** Adds to the (tenant, day, key) total atomically, so concurrent processes never lose an addition. */
  addSpend(entry: SpendEntry): Promise<void>;
  /** USD spent by the tenant on `day`: by every key, or by one. */
  spent(query: { tenant: string; day: string; keyId?: string }): Promise<number>;
}

/** The store's API keys, when it declares the `keys` capability. */
export function keyStoreOf(store: StoreBaseV1 & KeyCapabilityV1): KeyStoreV1 | undefined {
  const keys = store.capabilities.has("keys") ? store.keys : undefined;
  return keys?.specificationVersion === "v1" ? keys : undefined;
}

/** The store's spend records, when it declares the `spend` capability. */
export function spendStoreOf(store: StoreBaseV1 & KeyCapabilityV1): SpendStoreV1 | undefined {
  const spend = store.capabilities.has("spend") ? store.spend : undefined;
  return spend?.specificationVersion === "v1" ? spend : undefined;
}
