import type { Principal } from "../spec/principal.js";
import type { RunListQuery, RunRecord, RunSummary } from "../spec/store.js";
import { isOwner } from "./principal.js";

/** The `runs` columns, as both stores hold them (events, answer and sources as JSON text). */
export interface RunRow {
  run_id: string;
  tenant: string;
  user: string;
  question: string;
  started_at: string;
  events: string;
  answer: string | null;
  sources: string | null;
}

/** A run's values in the column order both adapters' `saveRun` insert (run_id ... sources). */
export function runValues(run: RunRecord): unknown[] {
  return [
    run.runId,
    run.tenant,
    run.user,
    run.question,
    run.startedAt,
    JSON.stringify(run.events),
    run.answer === undefined ? null : JSON.stringify(run.answer),
    run.sources === undefined ? null : JSON.stringify(run.sources),
  ];
}

export function runFromRow(row: RunRow): RunRecord {
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

/** The principal may see the run: its own, or any of the tenant's for the owner role `*`. */
export function runVisible(row: { user: string }, principal: Principal): boolean {
  return row.user === principal.user || isOwner(principal);
}

const MAX_LIST = 200;

/**
 * The WHERE clauses (with `?` placeholders, in order) and limit of `listRuns`; `answerField` is the dialect's
 * expression for a top-level field of the saved answer, `userColumn` the quoted `user` column.
 */
export function runListFilter(
  principal: Principal,
  query: RunListQuery,
  dialect: { userColumn: string; answerField: (field: "status" | "stopReason") => string },
): { clauses: string[]; params: unknown[]; limit: number } {
  const clauses = ["tenant = ?"];
  const params: unknown[] = [principal.tenant];
  const add = (sql: string, value: unknown) => {
    clauses.push(sql);
    params.push(value);
  };
  // Not an owner: only their own runs, whatever `user` asks for.
  const user = isOwner(principal) ? query.user : principal.user;
  if (user !== undefined) add(`${dialect.userColumn} = ?`, user);
  if (query.before !== undefined) add("started_at < ?", query.before);
  if (query.status !== undefined) add(`${dialect.answerField("status")} = ?`, query.status);
  if (query.stopReason !== undefined) add(`${dialect.answerField("stopReason")} = ?`, query.stopReason);
  const limit = Math.min(MAX_LIST, Math.max(1, Math.floor(query.limit ?? 50)));
  return { clauses, params, limit };
}

/** The listed columns of a run, besides what its answer says. */
export interface RunSummaryRow {
  run_id: string;
  tenant: string;
  user: string;
  question: string;
  started_at: string;
}

/** A run summary from its row and the fields read from its saved answer (each kept only when of the right type). */
export function runSummary(
  row: RunSummaryRow,
  answer: { status: unknown; stopReason: unknown; costUsd: unknown; latencyMs: unknown },
): RunSummary {
  const summary: RunSummary = {
    runId: row.run_id,
    tenant: row.tenant,
    user: row.user,
    question: row.question,
    startedAt: row.started_at,
  };
  const { status } = answer;
  if (status === "answered" || status === "partial" || status === "refused") summary.status = status;
  if (typeof answer.stopReason === "string") summary.stopReason = answer.stopReason;
  if (typeof answer.costUsd === "number") summary.costUsd = answer.costUsd;
  if (typeof answer.latencyMs === "number") summary.latencyMs = answer.latencyMs;
  return summary;
}
