import type { ApiKeyRecord } from "../spec/keys.js";

/** The `api_keys` columns, as both stores hold them (`roles` is JSON text in SQLite, jsonb in PostgreSQL). */
export interface KeyRow {
  id: string;
  hash: string;
  tenant: string;
  user: string;
  roles: string | string[];
  label: string | null;
  rate_requests: number | null;
  rate_per_ms: number | null;
  daily_usd: number | null;
  created_at: string;
  revoked_at: string | null;
}

/**
 * A key's values in the column order both adapters' `putKey` insert: id, hash, tenant, user, roles (JSON text),
 * label, rate_requests, rate_per_ms, daily_usd, created_at, revoked_at.
 */
export function keyValues(key: ApiKeyRecord): unknown[] {
  return [
    key.id,
    key.hash,
    key.tenant,
    key.user,
    JSON.stringify(key.roles),
    key.label ?? null,
    key.rate?.requests ?? null,
    key.rate?.perMs ?? null,
    key.dailyUsd ?? null,
    key.createdAt,
    key.revokedAt ?? null,
  ];
}

export function keyFromRow(row: KeyRow): ApiKeyRecord {
  const key: ApiKeyRecord = {
    id: row.id,
    hash: row.hash,
    tenant: row.tenant,
    user: row.user,
    roles: typeof row.roles === "string" ? (JSON.parse(row.roles) as string[]) : row.roles,
    createdAt: row.created_at,
  };
  if (row.label !== null) key.label = row.label;
  if (row.rate_requests !== null && row.rate_per_ms !== null)
    key.rate = { requests: row.rate_requests, perMs: row.rate_per_ms };
  if (row.daily_usd !== null) key.dailyUsd = row.daily_usd;
  if (row.revoked_at !== null) key.revokedAt = row.revoked_at;
  return key;
}
