import { AccessDeniedError } from "../../spec/errors.js";
import type { Principal } from "../../spec/principal.js";
import type { RunListQuery, RunRecord, RunSummary } from "../../spec/store.js";
import { isOwner } from "../principal.js";
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
    .run(
      run.runId,
      run.tenant,
      run.user,
      run.question,
      run.startedAt,
      JSON.stringify(run.events),
      run.answer === undefined ? null : JSON.stringify(run.answer),
      run.sources === undefined ? null : JSON.stringify(run.sources),
    );
  if (result.changes === 0) {
    throw new AccessDeniedError(`Run ${run.runId} belongs to another tenant.`, { runId: run.runId });
  }
}

interface RunRow {
  run_id: string;
  tenant: string;
  user: string;
  question: string;
  started_at: string;
  events: string;
  answer: string | null;
  sources: string | null;
}

/** A run of the principal's tenant, started by the principal (or any run of the tenant for the owner role `*`). */
export function getRun(ctx: StoreContext, runId: string, principal: Principal): RunRecord | undefined {
  const row = ctx.stmt("SELECT * FROM runs WHERE run_id = ? AND tenant = ?").get(runId, principal.tenant) as
    | RunRow
    | undefined;
  if (!row || (row.user !== principal.user && !isOwner(principal))) return undefined;
  const run: RunRecord = {
    runId: row.run_id,
    tenant: row.tenant,
    user: row.user,
    question: row.question,
    startedAt: row.started_at,
    events: JSON.parse(row.events) as unknown[],
  };
  if (row.answer !== null) run.answer = JSON.parse(row.answer) as unknown;
  if (row.sources !== null) run.sources = JSON.parse(row.sources) as string[];
  return run;
}

const MAX_LIST = 200;

interface SummaryRow {
  run_id: string;
  tenant: string;
  user: string;
  question: string;
  started_at: string;
  status: string | null;
  stop_reason: string | null;
  cost_usd: number | null;
  latency_ms: number | null;
}

/** The runs `getRun` would show the principal, newest first, read from the saved answers' fields. */
export function listRuns(ctx: StoreContext, principal: Principal, query: RunListQuery = {}): RunSummary[] {
  const clauses = ["tenant = ?"];
  const params: unknown[] = [principal.tenant];
  // Not an owner: only their own runs, whatever `user` asks for.
  const user = isOwner(principal) ? query.user : principal.user;
  if (user !== undefined) {
    clauses.push("user = ?");
    params.push(user);
  }
  if (query.before !== undefined) {
    clauses.push("started_at < ?");
    params.push(query.before);
  }
  if (query.status !== undefined) {
    clauses.push("json_extract(answer, '$.status') = ?");
    params.push(query.status);
  }
  if (query.stopReason !== undefined) {
    clauses.push("json_extract(answer, '$.stopReason') = ?");
    params.push(query.stopReason);
  }
  const limit = Math.min(MAX_LIST, Math.max(1, Math.floor(query.limit ?? 50)));
  const rows = ctx
    .stmt(
      `SELECT run_id, tenant, user, question, started_at, json_extract(answer, '$.status') AS status,
         json_extract(answer, '$.stopReason') AS stop_reason, json_extract(answer, '$.usage.costUsd') AS cost_usd,
         json_extract(answer, '$.latencyMs') AS latency_ms
       FROM runs WHERE ${clauses.join(" AND ")} ORDER BY started_at DESC, run_id DESC LIMIT ?`,
    )
    .all(...params, limit) as SummaryRow[];
  return rows.map((row) => {
    const summary: RunSummary = {
      runId: row.run_id,
      tenant: row.tenant,
      user: row.user,
      question: row.question,
      startedAt: row.started_at,
    };
    if (row.status === "answered" || row.status === "partial" || row.status === "refused") summary.status = row.status;
    if (row.stop_reason !== null) summary.stopReason = row.stop_reason;
    if (typeof row.cost_usd === "number") summary.costUsd = row.cost_usd;
    if (typeof row.latency_ms === "number") summary.latencyMs = row.latency_ms;
    return summary;
  });
}
