import { AccessDeniedError } from "../../spec/errors.js";
import type { Principal } from "../../spec/principal.js";
import type { RunListQuery, RunRecord, RunSummary } from "../../spec/store.js";
import {
  type RunRow,
  type RunSummaryRow,
  runFromRow,
  runListFilter,
  runSummary,
  runValues,
  runVisible,
} from "../run-row.js";
import type { StoreContext } from "./context.js";

/** Saves (or updates) a run; a run id already used by another tenant is refused. */
export function saveRun(ctx: StoreContext, run: RunRecord): void {
  ctx.assertWritable("save a run");
  const result = ctx
    .stmt(
      `INSERT INTO runs (run_id, tenant, user, question, started_at, events, answer, sources)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id) DO UPDATE SET user = excluded.user, question = excluded.question,
         started_at = excluded.started_at, events = excluded.events, answer = excluded.answer,
         sources = excluded.sources
       WHERE runs.tenant = excluded.tenant`,
    )
    .run(...runValues(run));
  if (result.changes === 0) {
    throw new AccessDeniedError(`Run ${run.runId} belongs to another tenant.`, { runId: run.runId });
  }
}

/** A run of the principal's tenant, started by the principal (or any run of the tenant for the owner role `*`). */
export function getRun(ctx: StoreContext, runId: string, principal: Principal): RunRecord | undefined {
  const row = ctx.stmt("SELECT * FROM runs WHERE run_id = ? AND tenant = ?").get(runId, principal.tenant) as
    | RunRow
    | undefined;
  return row && runVisible(row, principal) ? runFromRow(row) : undefined;
}

interface SummaryRow extends RunSummaryRow {
  status: string | null;
  stop_reason: string | null;
  cost_usd: number | null;
  latency_ms: number | null;
}

/** The runs `getRun` would show the principal, newest first, read from the saved answers' fields. */
export function listRuns(ctx: StoreContext, principal: Principal, query: RunListQuery = {}): RunSummary[] {
  const { clauses, params, limit } = runListFilter(principal, query, {
    userColumn: "user",
    answerField: (field) => `json_extract(answer, '$.${field}')`,
  });
  const rows = ctx
    .stmt(
      `SELECT run_id, tenant, user, question, started_at, json_extract(answer, '$.status') AS status,
         json_extract(answer, '$.stopReason') AS stop_reason, json_extract(answer, '$.usage.costUsd') AS cost_usd,
         json_extract(answer, '$.latencyMs') AS latency_ms
       FROM runs WHERE ${clauses.join(" AND ")} ORDER BY started_at DESC, run_id DESC LIMIT ?`,
    )
    .all(...params, limit) as SummaryRow[];
  return rows.map((row) =>
    runSummary(row, {
      status: row.status,
      stopReason: row.stop_reason,
      costUsd: row.cost_usd,
      latencyMs: row.latency_ms,
    }),
  );
}
