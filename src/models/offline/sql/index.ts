export { type AnswerFromRowsOptions, answerFromRows } from "./answer-rows.js";
export { type DateRange, describeRange, findDateRanges } from "./dates.js";
export { planSql } from "./plan-sql.js";
export { profileColumns } from "./profile.js";
export type { ColumnProfile, PlanSqlOptions, SqlCondition, SqlPlan, SqlPlanKind } from "./types.js";
