import type { ApiKeyRecord, KeyStoreV1 } from "../../spec/keys.js";
import { type KeyRow, keyFromRow, keyValues } from "../key-row.js";
import type { RunOnStore } from "./graph.js";

/** API keys in the `api_keys` table (schema v3): the SHA-256 of each key, never the key. */
export class SqliteKeys implements KeyStoreV1 {
  readonly specificationVersion = "v1" as const;
  readonly #run: RunOnStore;

  constructor(run: RunOnStore) {
    this.#run = run;
  }

  putKey(key: ApiKeyRecord): Promise<void> {
    return this.#run("store an API key", (ctx) => {
      ctx.assertWritable("store an API key");
      ctx
        .stmt(
          `INSERT INTO api_keys (id, hash, tenant, user, roles, label, rate_requests, rate_per_ms, daily_usd,
             created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(...keyValues(key));
    });
  }

  keyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    return this.#run("read an API key", (ctx) => {
      const row = ctx.stmt("SELECT * FROM api_keys WHERE hash = ?").get(hash) as KeyRow | undefined;
      return row && keyFromRow(row);
    });
  }

  listKeys(options: { tenant?: string } = {}): Promise<ApiKeyRecord[]> {
    return this.#run("list API keys", (ctx) => {
      const rows =
        options.tenant === undefined
          ? ctx.stmt("SELECT * FROM api_keys ORDER BY created_at, id").all()
          : ctx.stmt("SELECT * FROM api_keys WHERE tenant = ? ORDER BY created_at, id").all(options.tenant);
      return (rows as KeyRow[]).map(keyFromRow);
    });
  }

  revokeKey(id: string, at: string): Promise<boolean> {
    return this.#run("revoke an API key", (ctx) => {
      ctx.assertWritable("revoke an API key");
      const result = ctx.stmt("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").run(at, id);
      return result.changes > 0;
    });
  }
}
