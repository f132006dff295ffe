import { AccessDeniedError } from "../../spec/errors.js";
import type { Principal } from "../../spec/principal.js";
import type { RunRecord } from "../../spec/store.js";
import type { StoreContext } from "./context.js";
import { isOwner } from "./filters.js";

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
