export { type AnswerFromRowsOptions, answerFromRows } from "./answer-rows.js";
export { startsAsQuestion } from "./cues.js";
export { type DateRange, describeRange, findDateRanges } from "./dates.js";
export { asksAggregate } from "./intent.js";
export { mapQuestion, planSql, type SqlMapping, speaksOfTable } from "./plan-sql.js";
export { distinctProbeSql } from "./probe.js";
export { profileColumns } from "./profile.js";
export type { ColumnProfile, PlanSqlOptions, SqlCondition, SqlPlan, SqlPlanKind } from "./types.js";
