import type pg from "pg";
import { AccessDeniedError } from "../../spec/errors.js";
import type { ApiKeyRecord, KeyStoreV1, SpendEntry, SpendStoreV1 } from "../../spec/keys.js";
import type { Principal } from "../../spec/principal.js";
import type { RunListQuery, RunRecord, RunSummary, SessionTurn } from "../../spec/store.js";
import { type KeyRow, keyFromRow, keyValues } from "../key-row.js";
import {
  type RunRow,
  type RunSummaryRow,
  runFromRow,
  runListFilter,
  runSummary,
  runValues,
  runVisible,
} from "../run-row.js";
import { checkSpendEntry } from "../spend-entry.js";
import type { Scope } from "./db.js";

/** How the store runs one transaction with its RLS scope (closed checks, typed errors). */
export type RunInTx = <T>(operation: string, scope: Scope, fn: (client: pg.PoolClient) => Promise<T>) => Promise<T>;

export async function cachedEmbeddings(
  client: pg.ClientBase,
  model: string,
  hashes: string[],
): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  if (hashes.length === 0) return out;
  const rows = await client.query<{ hash: string; vector: number[] }>(
    "SELECT hash, vector FROM embedding_cache WHERE model = $1 AND hash = ANY ($2)",
    [model, hashes],
  );
  for (const row of rows.rows) out.set(row.hash, Float32Array.from(row.vector));
  return out;
}

export async function cacheEmbeddings(
  client: pg.ClientBase,
  model: string,
  entries: Map<string, Float32Array>,
): Promise<void> {
  if (entries.size === 0) return;
  const hashes = [...entries.keys()];
  const vectors = [...entries.values()].map((v) => `{${Array.from(v, (x) => (Number.isFinite(x) ? x : 0)).join(",")}}`);
  await client.query(
    `INSERT INTO embedding_cache (model, hash, vector)
     SELECT $1, h, v::real[] FROM unnest($2::text[], $3::text[]) AS u (h, v)
     ON CONFLICT (model, hash) DO UPDATE SET vector = excluded.vector`,
    [model, hashes, vectors],
  );
}

/** Saves (or updates) a run; a run id already used by another tenant is refused. */
export async function saveRun(client: pg.ClientBase, run: RunRecord): Promise<void> {
  // RLS hides another tenant's run, so the conflict check must not depend on seeing it: the insert
  // conflicts on the primary key either way, and the update's WHERE keeps other tenants' rows.
  const result = await client.query(
    `INSERT INTO runs (run_id, tenant, "user", question, started_at, events, answer, sources)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (run_id) DO UPDATE SET "user" = excluded."user", question = excluded.question,
       started_at = excluded.started_at, events = excluded.events, answer = excluded.answer,
       sources = excluded.sources
     WHERE runs.tenant = excluded.tenant`,
    runValues(run),
  );
  if (!result.rowCount)
    throw new AccessDeniedError(`Run ${run.runId} belongs to another tenant.`, { runId: run.runId });
}

export async function getRun(
  client: pg.ClientBase,
  runId: string,
  principal: Principal,
): Promise<RunRecord | undefined> {
  const row = (
    await client.query<RunRow>("SELECT * FROM runs WHERE run_id = $1 AND tenant = $2", [runId, principal.tenant])
  ).rows[0];
  return row && runVisible(row, principal) ? runFromRow(row) : undefined;
}

export async function listRuns(
  client: pg.ClientBase,
  principal: Principal,
  query: RunListQuery = {},
): Promise<RunSummary[]> {
  const { clauses, params, limit } = runListFilter(principal, query, {
    userColumn: `"user"`,
    answerField: (field) => `answer::jsonb ->> '${field}'`,
  });
  let n = 0;
  const where = clauses.join(" AND ").replace(/\?/g, () => `$${++n}`);
  const rows = (
    await client.query<RunSummaryRow & { answer: Record<string, unknown> | null }>(
      `SELECT run_id, tenant, "user", question, started_at, answer::jsonb AS answer
       FROM runs WHERE ${where} ORDER BY started_at DESC, run_id DESC LIMIT $${n + 1}`,
      [...params, limit],
    )
  ).rows;
  return rows.map((row) => {
    const answer = row.answer ?? {};
    const usage = answer.usage as { costUsd?: unknown } | undefined;
    return runSummary(row, {
      status: answer.status,
      stopReason: answer.stopReason,
      costUsd: usage?.costUsd,
      latencyMs: answer.latencyMs,
    });
  });
}

export async function appendTurns(
  client: pg.ClientBase,
  sessionId: string,
  principal: Principal,
  turns: SessionTurn[],
): Promise<void> {
  if (turns.length === 0) return;
  const { tenant, user } = principal;
  // One session's appends take turns, so sequence numbers never collide.
  await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`ferret.turns:${tenant}:${user}:${sessionId}`]);
  const last = await client.query<{ seq: number | null }>(
    `SELECT max(seq) AS seq FROM turns WHERE tenant = $1 AND "user" = $2 AND session_id = $3`,
    [tenant, user, sessionId],
  );
  const start = last.rows[0]?.seq ?? 0;
  await client.query(
    `INSERT INTO turns (tenant, "user", session_id, seq, role, content, at)
     SELECT $1, $2, $3, $4 + u.n, u.role, u.content, u.at
     FROM unnest($5::text[], $6::text[], $7::text[]) WITH ORDINALITY AS u (role, content, at, n)`,
    [tenant, user, sessionId, start, turns.map((t) => t.role), turns.map((t) => t.content), turns.map((t) => t.at)],
  );
}

export async function getTurns(client: pg.ClientBase, sessionId: string, principal: Principal): Promise<SessionTurn[]> {
  const rows = await client.query<SessionTurn>(
    `SELECT role, content, at FROM turns WHERE tenant = $1 AND "user" = $2 AND session_id = $3 ORDER BY seq`,
    [principal.tenant, principal.user, sessionId],
  );
  return rows.rows;
}

/** API keys (the SHA-256 of each key, never the key). Looked up before a tenant is known, so not tenant-scoped. */
export class PgKeys implements KeyStoreV1 {
  readonly specificationVersion = "v1" as const;
  readonly #tx: RunInTx;

  constructor(tx: RunInTx) {
    this.#tx = tx;
  }

  putKey(key: ApiKeyRecord): Promise<void> {
    return this.#tx("store an API key", { tenant: key.tenant }, async (client) => {
      await client.query(
        `INSERT INTO api_keys (id, hash, tenant, "user", roles, label, rate_requests, rate_per_ms, daily_usd,
           created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        keyValues(key),
      );
    });
  }

  keyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    return this.#tx("read an API key", {}, async (client) => {
      const row = (await client.query<KeyRow>("SELECT * FROM api_keys WHERE hash = $1", [hash])).rows[0];
      return row && keyFromRow(row);
    });
  }

  listKeys(options: { tenant?: string } = {}): Promise<ApiKeyRecord[]> {
    return this.#tx("list API keys", {}, async (client) => {
      const rows =
        options.tenant === undefined
          ? await client.query<KeyRow>("SELECT * FROM api_keys ORDER BY created_at, id")
          : await client.query<KeyRow>("SELECT * FROM api_keys WHERE tenant = $1 ORDER BY created_at, id", [
              options.tenant,
            ]);
      return rows.rows.map(keyFromRow);
    });
  }

  revokeKey(id: string, at: string): Promise<boolean> {
    return this.#tx("revoke an API key", {}, async (client) => {
      const result = await client.query("UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL", [
        at,
        id,
      ]);
      return (result.rowCount ?? 0) > 0;
    });
  }
}

/** Daily spend per (tenant, UTC day, key); additions are one upsert that adds. */
export class PgSpend implements SpendStoreV1 {
  readonly specificationVersion = "v1" as const;
  readonly #tx: RunInTx;

  constructor(tx: RunInTx) {
    this.#tx = tx;
  }

  addSpend(entry: SpendEntry): Promise<void> {
    try {
      checkSpendEntry(entry);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#tx("record spend", { tenant: entry.tenant }, async (client) => {
      await client.query(
        `INSERT INTO spend (tenant, day, key_id, usd, runs) VALUES ($1, $2, $3, $4, 1)
         ON CONFLICT (tenant, day, key_id) DO UPDATE SET usd = spend.usd + excluded.usd, runs = spend.runs + 1`,
        [entry.tenant, entry.day, entry.keyId, entry.usd],
      );
    });
  }

  spent(query: { tenant: string; day: string; keyId?: string }): Promise<number> {
    return this.#tx("read spend", { tenant: query.tenant }, async (client) => {
      const row =
        query.keyId === undefined
          ? await client.query<{ usd: number }>(
              "SELECT coalesce(sum(usd), 0) AS usd FROM spend WHERE tenant = $1 AND day = $2",
              [query.tenant, query.day],
            )
          : await client.query<{ usd: number }>(
              "SELECT coalesce(sum(usd), 0) AS usd FROM spend WHERE tenant = $1 AND day = $2 AND key_id = $3",
              [query.tenant, query.day, query.keyId],
            );
      return Number(row.rows[0]?.usd ?? 0);
    });
  }
}
