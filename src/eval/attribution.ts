import type { Answer } from "../spec/answer.js";
import type { TraceEvent } from "../spec/trace.js";
import { normaliseId } from "./metrics/ids.js";
import { containsKeyword, stripCitationMarkers } from "./metrics/text.js";
import type { EvalQuestion } from "./schema.js";
import type { QuestionMetrics } from "./score-question.js";

export const FAILURE_STAGES = ["router", "planner", "retriever", "evaluator", "answerer", "error"] as const;
export type FailureStage = (typeof FAILURE_STAGES)[number];

export interface Failure {
  stage: FailureStage;
  reason: string;
}

export interface AttributionInput {
  question: EvalQuestion;
  answer: Answer;
  events: readonly TraceEvent[];
  metrics: QuestionMetrics;
  /** Sources the run searched. */
  searched: readonly string[];
  /** Distinct retrieved document and row ids (normalised, see `unitId`). */
  retrieved: readonly string[];
}

function lastOf<K extends TraceEvent["type"]>(events: readonly TraceEvent[], kind: K) {
  let found: Extract<TraceEvent, { type: K }> | undefined;
  for (const e of events) if (e.type === kind) found = e as Extract<TraceEvent, { type: K }>;
  return found;
}

function missingGroups(answer: Answer, q: EvalQuestion): string[] {
  const text = stripCitationMarkers(answer.text);
  return q.answer_keywords.filter((g) => !g.some((k) => containsKeyword(text, k))).map((g) => g.join(" | "));
}

function wrongWithGold(input: AttributionInput): Failure {
  const { question: q, answer, events, searched, retrieved } = input;
  const missingGold = q.gold_sources.filter((g) => !retrieved.includes(normaliseId(g)));
  if (missingGold.length > 0) {
    const unsearched = q.gold_tools.filter((t) => !searched.includes(t));
    if (unsearched.length > 0) {
      return { stage: "planner", reason: `never searched ${unsearched.join(", ")}; missing ${missingGold.join(", ")}` };
    }
    const where = searched.length > 0 ? searched.join(", ") : "nothing";
    return { stage: "retriever", reason: `searched ${where} but never retrieved ${missingGold.join(", ")}` };
  }
  const grade = lastOf(events, "grade");
  if (answer.status === "refused") {
    return { stage: "evaluator", reason: `refused (${answer.stopReason}) though all gold was retrieved` };
  }
  if (answer.status === "partial" || (grade !== undefined && !grade.sufficient)) {
    return {
      stage: "evaluator",
      reason: `stopped (${answer.stopReason}) with an insufficient grade while all gold was retrieved`,
    };
  }
  return {
    stage: "answerer",
    reason: `all gold retrieved, but the answer misses: ${missingGroups(answer, q).join("; ")}`,
  };
}

function wrongWithoutGold(input: AttributionInput): Failure {
  const { question: q, answer, events } = input;
  if (q.expect_refusal) {
    if (answer.status === "refused") return { stage: "answerer", reason: "the refusal cites passages" };
    const grade = lastOf(events, "grade");
    if (grade?.sufficient) {
      return { stage: "evaluator", reason: "graded the evidence sufficient where the answer must be refused" };
    }
    return { stage: "answerer", reason: `answered (${answer.status}) where a refusal was expected` };
  }
  if (answer.status === "refused")
    return { stage: "answerer", reason: `refused (${answer.stopReason}) a question it can answer` };
  return { stage: "answerer", reason: `the answer misses: ${missingGroups(answer, q).join("; ")}` };
}

/**
 * Which stage most likely caused a wrong answer (or a leak), from the answer and its trace; `null` when the
 * answer is correct and leaks nothing. Stages are checked in pipeline order: router, planner, retriever,
 * evaluator, answerer.
 */
export function attributeFailure(input: AttributionInput): Failure | null {
  const { question: q, metrics } = input;
  if (metrics.answer_correct === 1) {
    return metrics.leak === 1 ? { stage: "answerer", reason: "the answer contains a must_not_contain string" } : null;
  }
  const route = lastOf(input.events, "route")?.route;
  const needsRetrieval = q.min_hops > 0 || q.gold_sources.length > 0 || q.gold_tools.length > 0;
  if (route === "none" && needsRetrieval) {
    return { stage: "router", reason: "routed to a direct answer, but the question needs retrieval" };
  }
  if (!needsRetrieval && !q.expect_refusal && route !== undefined && route !== "none" && metrics.retrieval_rounds > 0) {
    return { stage: "router", reason: `routed to ${route} retrieval for a question that needs none` };
  }
  return q.gold_sources.length > 0 ? wrongWithGold(input) : wrongWithoutGold(input);
}
