import type { AgentState, CallRecord, DraftClaim } from "../../spec/engine.js";
import type { TableSchema } from "../../spec/source.js";
import type { ToolCallRequest } from "../../spec/trace.js";
import { termSet } from "../../text/overlap.js";
import type { QuestionPart } from "./analyze.js";
import { callsForPart, passagesOf, unitsOf } from "./evidence-view.js";
import { answerFromRows, planSql, type SqlPlan } from "./sql/index.js";

type Call = Omit<ToolCallRequest, "callId">;

/** Citations a computed answer carries: the first line of each matching row, up to this many rows. */
const CITED_ROWS = 5;

/** A table the run may query, with its source's description. */
interface SqlTable {
  name: string;
  description: string;
  schema: TableSchema;
}

function tablesOf(state: AgentState): SqlTable[] {
  const hasTools = ["describe_table", "run_sql"].every((t) => state.tools.some((d) => d.name === t));
  if (!hasTools) return [];
  return state.sources.flatMap((s) =>
    (s.tables ?? []).map((schema) => ({ name: schema.name, description: s.description, schema })),
  );
}

/** Does the question speak of the table's rows ("how many support tickets")? Counting words alone do not make SQL. */
function namesTable(question: string, table: SqlTable): boolean {
  const asked = termSet(question);
  return [...termSet(table.name.replace(/_/g, " "))].some((t) => asked.has(t));
}

/** The table lookups of an aggregation part: describe the table it speaks of (the planner turns that into SQL). */
export function describeCalls(state: AgentState, part: QuestionPart, index: number, ranked: string[]): Call[] {
  if (!part.aggregation) return [];
  const tables = tablesOf(state).filter((t) => namesTable(part.text, t));
  const table = ranked.map((name) => tables.find((t) => t.name === name)).find(Boolean);
  return table ? [{ tool: "describe_table", args: { table: table.name }, subQuestion: index }] : [];
}

interface SqlState {
  plan: SqlPlan;
  table: SqlTable;
  aggregate?: CallRecord;
  list?: CallRecord;
}

/** The SQL plan of a part, from its describe_table result (recomputed: the planner is deterministic). */
export function sqlStateOf(state: AgentState, part: QuestionPart, index: number): SqlState | undefined {
  const records = callsForPart(state, index);
  const described = records.find((r) => r.call.tool === "describe_table" && r.status === "ok");
  const table = tablesOf(state).find((t) => t.name === described?.call.args.table);
  if (!described || !table) return undefined;
  const plan = planSql({
    question: part.text,
    table: { ...table.schema, description: table.description },
    describe: described.rows,
  });
  if (!plan) return undefined;
  const sqlOf = (r: CallRecord) => (r.call.tool === "run_sql" ? String(r.call.args.sql ?? "") : "");
  return {
    plan,
    table,
    aggregate: records.find((r) => sqlOf(r) === plan.sql),
    list: records.find((r) => sqlOf(r) === plan.listSql),
  };
}

/** After describe_table: run the aggregate and the listing of matching rows, in parallel. */
export function sqlCalls(state: AgentState, part: QuestionPart, index: number): Call[] {
  const sql = sqlStateOf(state, part, index);
  if (!sql || sql.aggregate) return [];
  return [
    { tool: "run_sql", args: { sql: sql.plan.sql }, subQuestion: index },
    { tool: "run_sql", args: { sql: sql.plan.listSql }, subQuestion: index },
  ];
}

/** True when a part was answered by SQL (the aggregate ran and returned rows). */
export function answeredBySql(state: AgentState, part: QuestionPart, index: number): boolean {
  const sql = sqlStateOf(state, part, index);
  return sql?.aggregate?.status === "ok" && (sql.aggregate.rows?.length ?? 0) > 0;
}

/** A claim stating the computed result, citing the first matching rows. */
export function sqlClaim(state: AgentState, part: QuestionPart, index: number): DraftClaim | undefined {
  const sql = sqlStateOf(state, part, index);
  if (!sql?.aggregate?.rows) return undefined;
  const text = answerFromRows({
    plan: sql.plan,
    rows: sql.aggregate.rows,
    listRows: sql.list?.rows,
    primaryKey: sql.table.schema.primaryKey,
  });
  if (!text) return undefined;
  const citations = (sql.list ? passagesOf(state, sql.list, CITED_ROWS) : []).flatMap(({ n, passage }) => {
    const first = unitsOf(passage.text)[0];
    return first ? [{ n, quote: first.text }] : [];
  });
  return { text, citations };
}
