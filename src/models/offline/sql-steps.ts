import type { AgentState, CallRecord, DraftClaim } from "../../spec/engine.js";
import type { TableSchema } from "../../spec/source.js";
import type { ToolCallRequest } from "../../spec/trace.js";
import { queryTerms } from "../../text/tokenize.js";
import { decompose, type QuestionPart } from "./analyze.js";
import { callsForPart, passagesOf, unitsOf } from "./evidence-view.js";
import { OFFLINE_PRESETS, type SqlSettings } from "./settings.js";
import {
  answerFromRows,
  asksAggregate,
  distinctProbeSql,
  mapQuestion,
  type SqlPlan,
  speaksOfTable,
  startsAsQuestion,
} from "./sql/index.js";

const DEFAULT_SQL: SqlSettings = OFFLINE_PRESETS.balanced.sql;

type Call = Omit<ToolCallRequest, "callId">;

/** Citations a computed answer carries: the first line of each matching row, up to this many rows. */
const CITED_ROWS = 5;

/** A table the run may query, with its source's description. */
interface SqlTable {
  name: string;
  description: string;
  schema: TableSchema;
}

/** The run's tables, when it has the SQL tools and knows the store's SQL dialect. */
function tablesOf(state: AgentState): SqlTable[] {
  const hasTools = ["describe_table", "run_sql"].every((t) => state.tools.some((d) => d.name === t));
  if (!hasTools || state.sqlDialect === undefined) return [];
  return state.sources.flatMap((s) =>
    (s.tables ?? []).map((schema) => ({ name: schema.name, description: s.description, schema })),
  );
}

function namesTable(question: string, table: SqlTable): boolean {
  return speaksOfTable(question, { ...table.schema, description: table.description });
}

/**
 * The whole question when the analysis split it into parts that all lean on one computation: SQL reads it whole,
 * since a split loses conditions ("status open or in_progress" becomes two questions; "Of the orders placed in
 * May, how many ..." loses the month). Part 0 carries the SQL; the other parts are covered by it. A part that
 * is a question of its own about something else ("How long does X take, and how many Y ...") keeps the split.
 */
function wholeQuestion(state: AgentState): string | undefined {
  const parts = decompose(state.standaloneQuestion);
  if (parts.length < 2 || !parts.every(leansOnComputation)) return undefined;
  const whole = state.standaloneQuestion.trim().replace(/[?.!]+$/, "");
  return asksTable(state, whole) ? whole : undefined;
}

/**
 * A part that asks for a computation itself, is a fragment without a question word of its own ("From Gdańsk",
 * "On average", "Of the orders placed in May"), or has no content but pronouns ("how much was it").
 */
function leansOnComputation(part: QuestionPart): boolean {
  return asksAggregate(part.text) || !startsAsQuestion(part.text) || ownTerms(part.text).length === 0;
}

/** Content words a clause has of its own (`how much was it`: none). */
function ownTerms(text: string): string[] {
  return queryTerms(text).filter((t) => !QUESTION_FILLER.has(t));
}

const QUESTION_FILLER = new Set("much many long which what who how it its they them that this those these".split(" "));

/** Does the question ask for a computation over one of the run's tables? */
function asksTable(state: AgentState, question: string): boolean {
  return asksAggregate(question) && tablesOf(state).some((t) => namesTable(question, t));
}

/**
 * Is part `index` (after the first) covered by SQL over the whole question? Before the table is described, when
 * the whole question asks for a computation over a table; after, when the whole question was planned.
 */
export function sqlCovers(state: AgentState, index: number, settings?: SqlSettings): boolean {
  const whole = wholeQuestion(state);
  if (index === 0 || whole === undefined) return false;
  const first = callsForPart(state, 0);
  if (!first.some((r) => r.call.tool === "describe_table")) return true;
  return stateAt(state, 0, undefined, settings)?.whole === true;
}

/** The table lookups of an aggregation part: describe the table it speaks of (the planner turns that into SQL). */
export function describeCalls(state: AgentState, part: QuestionPart, index: number, ranked: string[]): Call[] {
  const whole = index === 0 ? wholeQuestion(state) : undefined;
  const text = whole ?? part.text;
  if (!part.aggregation && !asksAggregate(text)) return [];
  const tables = tablesOf(state).filter((t) => namesTable(text, t));
  const table = ranked.map((name) => tables.find((t) => t.name === name)).find(Boolean);
  return table ? [{ tool: "describe_table", args: { table: table.name }, subQuestion: index }] : [];
}

interface SqlState {
  table: SqlTable;
  /** The plan read the whole question (not only this part). */
  whole?: boolean;
  /** Why the question could not be planned over the table. */
  reason?: string;
  /** The distinct-values probe still to run (its SQL), when a column's values were only sampled. */
  probe?: string;
  plan?: SqlPlan;
  aggregate?: CallRecord;
  list?: CallRecord;
}

/**
 * The table description part `index` plans on: its own, or, when it asks for a computation over a table
 * another part already described (two clauses about one table: the loop skips the repeated description),
 * that part's.
 */
function describedFor(state: AgentState, index: number, partText: string | undefined): CallRecord | undefined {
  const isDescribe = (r: CallRecord) => r.call.tool === "describe_table" && r.status === "ok";
  const own = callsForPart(state, index).find(isDescribe);
  if (own || partText === undefined || !asksAggregate(partText)) return own;
  const named = new Set(
    tablesOf(state)
      .filter((t) => namesTable(partText, t))
      .map((t) => t.name),
  );
  return state.calls.find((r) => isDescribe(r) && named.has(String(r.call.args.table)));
}

/** Has part `index` no calls of its own while another part described a table it asks about? */
export function borrowsDescription(state: AgentState, part: QuestionPart, index: number): boolean {
  return callsForPart(state, index).length === 0 && describedFor(state, index, part.text) !== undefined;
}

const sqlOf = (r: CallRecord) => (r.call.tool === "run_sql" ? String(r.call.args.sql ?? "") : "");

/**
 * Where a part stands on its table: described, values probed, planned (recomputed: the planner is
 * deterministic), aggregate and listing run.
 */
export function sqlStateOf(
  state: AgentState,
  part: QuestionPart,
  index: number,
  settings?: SqlSettings,
): SqlState | undefined {
  if (sqlCovers(state, index, settings)) return undefined;
  return stateAt(state, index, part.text, settings);
}

function stateAt(
  state: AgentState,
  index: number,
  partText: string | undefined,
  settings: SqlSettings = DEFAULT_SQL,
): SqlState | undefined {
  const described = describedFor(state, index, partText);
  const table = tablesOf(state).find((t) => t.name === described?.call.args.table);
  const dialect = state.sqlDialect;
  if (!described || !table || !dialect) return undefined;
  // A statement's result does not depend on which part ran it: another part's identical probe or query counts
  // (the loop skips a repeated call, so the second part never runs its own).
  const records = state.calls;
  const probeSql = distinctProbeSql(table.schema, described.rows, settings.maxProbeValues);
  const probed = probeSql === undefined ? undefined : records.find((r) => sqlOf(r) === probeSql);
  if (probeSql !== undefined && probed === undefined) return { table, probe: probeSql };
  const whole = index === 0 ? wholeQuestion(state) : undefined;
  const text = partText ?? decompose(state.standaloneQuestion)[index]?.text ?? "";
  const questions = whole !== undefined ? [whole, text] : [text];
  const mappings = questions.map((question) =>
    mapQuestion({
      question,
      dialect,
      table: { ...table.schema, description: table.description },
      describe: described.rows,
      distinct: probed?.status === "ok" ? probed.rows : undefined,
      maxUnmapped: settings.maxUnmapped,
    }),
  );
  const chosen = mappings.findIndex((m) => m.plan !== undefined);
  const plan = mappings[chosen]?.plan;
  if (!plan) return { table, reason: mappings.at(-1)?.reason };
  return {
    plan,
    whole: whole !== undefined && chosen === 0,
    table,
    aggregate: records.find((r) => sqlOf(r) === plan.sql),
    list: records.find((r) => sqlOf(r) === plan.listSql),
  };
}

/**
 * After describe_table: read every value of the sampled text columns (one probe), then run the aggregate and
 * the listing of matching rows, in parallel.
 */
export function sqlCalls(state: AgentState, part: QuestionPart, index: number, settings?: SqlSettings): Call[] {
  const sql = sqlStateOf(state, part, index, settings);
  if (sql?.probe) return [{ tool: "run_sql", args: { sql: sql.probe, maxRows: 1000 }, subQuestion: index }];
  if (!sql?.plan || sql.aggregate) return [];
  return [
    { tool: "run_sql", args: { sql: sql.plan.sql }, subQuestion: index },
    { tool: "run_sql", args: { sql: sql.plan.listSql }, subQuestion: index },
  ];
}

/** What the planner is doing for a part, for the plan's thought. */
export function sqlThought(state: AgentState, part: QuestionPart, index: number, settings?: SqlSettings): string {
  const sql = sqlStateOf(state, part, index, settings);
  if (sql?.probe) return `read the values of ${sql.table.name}'s text columns`;
  return sql?.plan?.explanation ?? "run SQL";
}

/** True when a part was answered by SQL (the aggregate ran and returned rows), itself or as part of the whole question. */
export function answeredBySql(state: AgentState, part: QuestionPart, index: number): boolean {
  const sql = sqlCovers(state, index) ? stateAt(state, 0, undefined) : sqlStateOf(state, part, index);
  return sql?.aggregate?.status === "ok" && (sql.aggregate.rows?.length ?? 0) > 0;
}

/** Question words a SQL answer left out (no column or value matched them): the answer is partial and says so. */
export function sqlUnmapped(state: AgentState, part: QuestionPart, index: number): string[] {
  const sql = sqlStateOf(state, part, index);
  return sql?.aggregate ? (sql.plan?.unmapped ?? []) : [];
}

/**
 * For the answer: each part a table was described for but could not be computed from, and why ("no column or
 * value of the shipments table matches: lkw, stellplätze"), so a refusal or partial answer says what was not
 * mapped instead of leaving it to a guess.
 */
export function sqlNotes(state: AgentState, parts: readonly QuestionPart[]): string[] {
  return parts.flatMap((part, index) => {
    if (sqlCovers(state, index)) return [];
    const reason = sqlStateOf(state, part, index)?.reason;
    return reason ? [`the table could not answer "${part.text}": ${reason}`] : [];
  });
}

/** A claim stating the computed result, citing the first matching rows. */
export function sqlClaim(state: AgentState, part: QuestionPart, index: number): DraftClaim | undefined {
  const sql = sqlStateOf(state, part, index);
  if (!sql?.plan || !sql.aggregate?.rows) return undefined;
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
