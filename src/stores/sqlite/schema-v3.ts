import type Database from "better-sqlite3";

/*
 * Schema v3: API keys (stored as the SHA-256 of the key, never the key) and per-tenant daily spend, for a
 * server that maps keys to principals and caps what each tenant spends a day; an index for listing a
 * tenant's runs newest first.
 */

/**
 * v2 -> v3: new tables only, nothing rebuilt. `spend` holds one row per (tenant, UTC day, key); additions
 * are upserts that add, so concurrent writers never lose one.
 */
export function migrateV2toV3(db: Database.Database): void {
  db.exec(`
    CREATE TABLE api_keys (
      id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, tenant TEXT NOT NULL, user TEXT NOT NULL,
      roles TEXT NOT NULL, label TEXT, rate_requests INTEGER, rate_per_ms INTEGER, daily_usd REAL,
      created_at TEXT NOT NULL, revoked_at TEXT
    );
    CREATE INDEX api_keys_by_tenant ON api_keys (tenant, created_at);
    CREATE TABLE spend (
      tenant TEXT NOT NULL, day TEXT NOT NULL, key_id TEXT NOT NULL, usd REAL NOT NULL, runs INTEGER NOT NULL,
      PRIMARY KEY (tenant, day, key_id)
    ) WITHOUT ROWID;
    CREATE INDEX runs_by_tenant ON runs (tenant, started_at);`);
}
