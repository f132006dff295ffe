import type { TableSchema } from "../../../spec/source.js";
import type { SqlDialect } from "../../../spec/sql-dialect.js";
import type { Grouping, Intent } from "./intent.js";
import { ROW_ID } from "./profile.js";
import { ident } from "./sql-text.js";
import type { ColumnProfile, SqlCondition, SqlPlan, SqlPlanKind } from "./types.js";

/** What a sum, average, minimum or maximum is taken over. */
export interface Measure {
  sql: string;
  label: string;
  column: string;
  date?: boolean;
  /** A condition the measure needs (the end date of a duration is present). */
  requires?: string;
}

export interface BuildPlanOptions {
  table: TableSchema;
  noun: string;
  conditions: SqlCondition[];
  intent: Intent;
  grouping?: Grouping;
  measure?: Measure;
  distinct?: ColumnProfile;
  /** The question compares the grouping's two named values: group, measure both, name the winner. */
  compare?: "max" | "min";
  dialect: SqlDialect;
}

function where(conditions: readonly string[]): string {
  return conditions.length > 0 ? ` WHERE ${conditions.join(" AND ")}` : "";
}

function chooseKind(o: BuildPlanOptions): SqlPlanKind | undefined {
  const { intent, measure } = o;
  if (o.distinct) return intent.count || intent.distinct ? "count_distinct" : undefined;
  if (intent.share) return o.conditions.some((c) => c.at !== undefined) && !o.grouping ? "share" : undefined;
  if (o.grouping && o.compare) return "group";
  if (o.grouping) return intent.superlative && !intent.rank ? "top_group" : "group";
  if (intent.avg) return measure ? "avg" : undefined;
  if (intent.sum && measure && !measure.date) return "sum";
  if (intent.count || intent.sum) return "count";
  if (intent.superlative && measure) return intent.superlative;
  return undefined;
}

/** The aggregate and listing SQL of a plan, once its parts are known. */
export function buildPlan(o: BuildPlanOptions): SqlPlan | undefined {
  const kind = chooseKind(o);
  if (kind === undefined) return undefined;
  const { table, noun, measure, grouping } = o;
  const t = ident(table.name);
  const base = o.conditions.map((c) => c.sql);
  const labels = o.conditions.map((c) => c.label);
  const used = new Set<string>();
  const plan = (sql: string, listConditions: string[], explanation: string, extra: Partial<SqlPlan> = {}): SqlPlan => {
    for (const c of [...base, ...listConditions]) for (const m of c.matchAll(/"((?:[^"]|"")+)"/g)) used.add(m[1]!);
    const columns = [ROW_ID, table.primaryKey, ...table.columns.map((c) => c.name).filter((n) => used.has(n))];
    const select = [...new Set(columns)].map(ident).join(", ");
    const listSql = `SELECT ${select} FROM ${t}${where(listConditions)} ORDER BY ${ident(table.primaryKey)}`;
    const suffix = labels.length > 0 ? ` where ${labels.join(" and ")}` : "";
    return {
      sql,
      listSql,
      explanation: `${explanation}${suffix}`,
      kind,
      table: table.name,
      noun,
      conditions: o.conditions,
      ...extra,
    };
  };

  if (kind === "share") {
    // The share of the matching rows that meet the condition named last (`of X's shipments, ... had Y`).
    const named = o.conditions.filter((c) => c.at !== undefined).sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
    const part = named.at(-1)!;
    const rest = o.conditions.filter((c) => c !== part).map((c) => c.sql);
    const hits = `SUM(CASE WHEN ${part.sql} THEN 1 ELSE 0 END)`;
    const sql = `SELECT ${o.dialect.round(`100.0 * ${hits} / COUNT(*)`, 2)} AS value, ${hits} AS k, COUNT(*) AS n FROM ${t}${where(rest)}`;
    const restLabels = o.conditions.filter((c) => c !== part);
    const built = plan(sql, [...rest, part.sql], `share of ${noun} with ${part.label}`, { part: part.label });
    built.conditions = restLabels;
    built.explanation = `share of ${noun}${restLabels.length > 0 ? ` where ${restLabels.map((c) => c.label).join(" and ")}` : ""} with ${part.label}`;
    return built;
  }
  if (kind === "count") {
    return plan(`SELECT COUNT(*) AS n FROM ${t}${where(base)}`, base, `count of ${noun}`);
  }
  if (kind === "count_distinct") {
    const column = o.distinct!;
    const c = ident(column.name);
    const rows = [...base, `${c} IS NOT NULL`];
    const sql = `SELECT COUNT(*) AS n, ${o.dialect.joinValues("v")} AS "values" FROM (SELECT DISTINCT ${c} AS v FROM ${t}${where(rows)} ORDER BY v) AS d`;
    return plan(sql, rows, `number of distinct ${column.name} values among ${noun}`, { column: column.name });
  }
  if (kind === "group" || kind === "top_group") {
    const g = grouping!;
    const useMeasure =
      measure && !measure.date && (o.intent.avg || o.intent.sum || o.intent.superlative || o.compare !== undefined);
    const metric = useMeasure
      ? o.intent.avg
        ? o.dialect.round(`AVG(${measure.sql})`, 2)
        : o.dialect.round(`SUM(${measure.sql})`, 2)
      : "COUNT(*)";
    const metricName = useMeasure ? "value" : "n";
    const metricLabel = useMeasure ? `${o.intent.avg ? "average" : "total"} ${measure.label}` : `number of ${noun}`;
    const rows = [...base, `${g.sql} IS NOT NULL`, ...(useMeasure && measure.requires ? [measure.requires] : [])];
    const extra = {
      column: g.name,
      ...(useMeasure ? { measure: metricLabel } : {}),
      ...(o.compare ? { compare: o.compare } : {}),
    };
    const select = `SELECT ${g.sql} AS ${ident(g.name)}, ${metric} AS ${metricName} FROM ${t}${where(rows)} GROUP BY ${g.sql}`;
    if (kind === "group") {
      return plan(
        `${select} ORDER BY ${metricName} DESC, ${ident(g.name)}`,
        rows,
        `${metricLabel} per ${g.name}`,
        extra,
      );
    }
    const order = o.intent.superlative === "min" ? "asc" : "desc";
    const best = order === "asc" ? "MIN" : "MAX";
    const inner = `SELECT ${metric} AS x FROM ${t}${where(rows)} GROUP BY ${g.sql}`;
    const sql = `${select} HAVING ${metric} = (SELECT ${best}(x) FROM (${inner}) AS g) ORDER BY ${ident(g.name)}`;
    const list = [...rows, `${g.sql} IN (SELECT ${ident(g.name)} FROM (${sql}) AS b)`];
    const what = `${g.name} with the ${order === "asc" ? "lowest" : "highest"} ${metricLabel}`;
    return plan(sql, list, what, { ...extra, order });
  }
  const m = measure!;
  const rows = [...base, ...(m.requires ? [m.requires] : []), `${m.sql} IS NOT NULL`];
  const extra = { column: m.column, measure: m.label };
  if (kind === "sum" || kind === "avg") {
    const agg = o.dialect.round(kind === "sum" ? `SUM(${m.sql})` : `AVG(${m.sql})`, 2);
    const sql = `SELECT ${agg} AS value, COUNT(*) AS n FROM ${t}${where(rows)}`;
    return plan(sql, rows, `${kind === "sum" ? "total" : "average"} ${m.label} over ${noun}`, extra);
  }
  const fn = kind === "max" ? "MAX" : "MIN";
  const sql = `SELECT ${fn}(${m.sql}) AS value, COUNT(*) AS n FROM ${t}${where(rows)}`;
  const list = [...rows, `${m.sql} = (SELECT ${fn}(${m.sql}) FROM ${t}${where(rows)})`];
  const word = m.date ? (kind === "max" ? "latest" : "earliest") : kind === "max" ? "highest" : "lowest";
  return plan(sql, list, `${word} ${m.label} among ${noun}`, extra);
}
