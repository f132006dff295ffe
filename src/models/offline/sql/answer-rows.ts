import { singular } from "./profile.js";
import { joinWords } from "./sql-text.js";
import type { SqlPlan } from "./types.js";

export interface AnswerFromRowsOptions {
  plan: SqlPlan;
  /** Rows of `plan.sql`. */
  rows: readonly Record<string, unknown>[];
  /** Rows of `plan.listSql`, when run: up to `maxListed` of their keys are named. */
  listRows?: readonly Record<string, unknown>[];
  /** The table's primary key, to name listed rows by. */
  primaryKey?: string;
  maxListed?: number;
}

function show(value: unknown): string {
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
  return value === null || value === undefined ? "none" : String(value);
}

function count(n: number, noun: string): string {
  return `${n} ${n === 1 ? singular(noun) : noun}`;
}

/**
 * One sentence stating a plan's result, with the conditions it applied:
 * `20 tickets match (created_at between 2026-03-01 and 2026-03-31).` Undefined when the rows are not
 * the shape the plan's SQL returns.
 */
export function answerFromRows(options: AnswerFromRowsOptions): string | undefined {
  const { plan, rows } = options;
  const where = plan.conditions.length > 0 ? ` (${plan.conditions.map((c) => c.label).join("; ")})` : "";
  const first = rows[0];
  const named = listed(options);
  switch (plan.kind) {
    case "count": {
      const n = Number(first?.n);
      if (!Number.isFinite(n)) return undefined;
      if (plan.conditions.length === 0) return `There are ${count(n, plan.noun)} in total${named}.`;
      return `${count(n, plan.noun)} ${n === 1 ? "matches" : "match"}${where}${named}.`;
    }
    case "count_distinct": {
      const n = Number(first?.n);
      if (!Number.isFinite(n)) return undefined;
      const values = typeof first?.values === "string" && first.values !== "" ? `: ${first.values}` : "";
      return `${n} distinct ${plan.column} ${n === 1 ? "value" : "values"} among the matching ${plan.noun}${where}${values}.`;
    }
    case "share": {
      const n = Number(first?.n);
      const k = Number(first?.k);
      if (!Number.isFinite(n) || !Number.isFinite(k)) return undefined;
      if (n === 0) return `No ${plan.noun} match${where}.`;
      return `${show(first?.value)}% of the ${plan.noun}${where} have ${plan.part}: ${k} of ${n}.`;
    }
    case "group": {
      if (rows.length === 0) return `No ${plan.noun} match${where}.`;
      const metric = plan.measure ? "value" : "n";
      if (plan.compare && rows.length === 2) return compared(plan, rows, metric, where);
      const parts = rows.map((r) => `${show(r[plan.column ?? ""])} ${show(r[metric])}`);
      return `${plan.measure ?? `Number of ${plan.noun}`} per ${plan.column}${where}: ${parts.join(", ")}.`;
    }
    case "top_group": {
      if (rows.length === 0) return `No ${plan.noun} match${where}.`;
      const metric = plan.measure ? "value" : "n";
      const winners = rows.map((r) => show(r[plan.column ?? ""]));
      const value = show(first?.[metric]);
      const most = plan.order === "asc" ? (plan.measure ? "lowest" : "fewest") : plan.measure ? "highest" : "most";
      const what = plan.measure ? `${most} ${plan.measure}` : `${most} ${plan.noun}`;
      const amount = plan.measure ? value : count(Number(first?.n), plan.noun);
      const verb = winners.length > 1 ? "tie with the" : "has the";
      return `${joinWords(winners)} ${verb} ${what}: ${amount}${where}${named}.`;
    }
    default: {
      if (!first || !("value" in first)) return undefined;
      const n = Number(first.n);
      if (first.value === null) return `No ${plan.noun} with a ${plan.measure} match${where}.`;
      const word = { sum: "total", avg: "average", max: "highest", min: "lowest" }[plan.kind];
      const dated = plan.kind === "max" || plan.kind === "min" ? /^\d{4}-\d{2}-\d{2}/.test(String(first.value)) : false;
      const label = dated ? (plan.kind === "max" ? "latest" : "earliest") : word;
      return `The ${label} ${plan.measure} is ${show(first.value)}, over ${count(n, plan.noun)}${where}${named}.`;
    }
  }
}

/** Two compared values, the winner first: `north has the higher total amount: 915.5, against south 155.` */
function compared(plan: SqlPlan, rows: readonly Record<string, unknown>[], metric: string, where: string): string {
  const [high, low] = rows as [Record<string, unknown>, Record<string, unknown>];
  const [win, lose] = plan.compare === "min" ? [low, high] : [high, low];
  const what = plan.measure ?? `number of ${plan.noun}`;
  const name = (r: Record<string, unknown>) => show(r[plan.column ?? ""]);
  if (show(win[metric]) === show(lose[metric])) {
    return `${name(win)} and ${name(lose)} have the same ${what}: ${show(win[metric])}${where}.`;
  }
  const word = plan.compare === "min" ? "lower" : "higher";
  return `${name(win)} has the ${word} ${what}: ${show(win[metric])}, against ${show(lose[metric])} for ${name(lose)}${where}.`;
}

/** `: T-1096, T-1103` when there are few enough listed rows to name. */
function listed(options: AnswerFromRowsOptions): string {
  const { listRows, primaryKey } = options;
  const max = options.maxListed ?? 10;
  if (!listRows || listRows.length === 0 || listRows.length > max) return "";
  const keys = listRows.map((r) => show(primaryKey !== undefined ? r[primaryKey] : (r._id ?? Object.values(r)[0])));
  return ` [${keys.join(", ")}]`;
}
