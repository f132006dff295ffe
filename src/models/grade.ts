/**
 * The grader: the model judges, per sub-question, how much of what it needs the passages state and which
 * passages support it; the engine turns that into sufficiency against a threshold that falls as steps pass.
 */

import type { z } from "zod";
import { PRESETS } from "../config/presets.js";
import type { AgentState, GradeResult, Preset, WithUsage } from "../spec/engine.js";
import type { SubQuestionGrade } from "../spec/trace.js";
import { toDraftAnswer } from "./answer.js";
import type { CallSettings } from "./call.js";
import { graderPrompt } from "./prompts.js";
import type { ResolvedModel } from "./resolve.js";
import {
  type GradeNextReply,
  type GradeReply,
  gradeAnswerReplySchema,
  gradeNextReplySchema,
  gradeReplySchema,
  gradeSearchReplySchema,
} from "./schemas.js";
import { generateStructured } from "./structured.js";

const FLOOR = 0.5;

/** The coverage a sub-question needs at this step: strict at first, easing by 0.05 a step to a floor. */
export function coverageThreshold(options: { preset: Preset; step: number }): number {
  const eased = PRESETS[options.preset].grade.coverageThreshold - 0.05 * Math.max(0, options.step - 1);
  return Math.round(Math.max(FLOOR, eased) * 100) / 100;
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

export function subQuestionsOf(state: Pick<AgentState, "subQuestions" | "standaloneQuestion" | "question">): string[] {
  if (state.subQuestions.length > 0) return state.subQuestions;
  return [state.standaloneQuestion || state.question];
}

/** Most searches a grader may propose for the next step. */
const MAX_SEARCHES = 4;

/**
 * A grade, and from a grader that plans: the searches it proposes for the next step (`[]`: nothing more is worth
 * searching, the grade is `done`; absent: the planner decides).
 */
export type GradedEvidence = WithUsage<GradeResult> & { searches?: string[] };

/** The reply's schema and name, by what the grader does besides grading. */
function replyFormat(answer: boolean, plan: boolean) {
  if (answer && plan) return { schema: gradeNextReplySchema, name: "evidence_grade_next_or_answer" };
  if (plan) return { schema: gradeSearchReplySchema, name: "evidence_grade_next" };
  if (answer) return { schema: gradeAnswerReplySchema, name: "evidence_grade_or_answer" };
  return { schema: gradeReplySchema, name: "evidence_grade" };
}

export async function gradeEvidence(options: {
  state: AgentState;
  model: ResolvedModel;
  signal: AbortSignal;
  settings: CallSettings;
  /** When the evidence is sufficient, answer from it in the same call (the grader is also the answerer). */
  answer?: boolean;
  /**
   * When it is not, propose the next step's searches in the same call (the grader is also the planner); with
   * `answer`, answer (partial or refused) when nothing more is worth searching.
   */
  plan?: boolean;
}): Promise<GradedEvidence> {
  const { state } = options;
  const questions = subQuestionsOf(state);
  const threshold = coverageThreshold({ preset: state.preset, step: state.step });
  const empty = (q: string, i: number): SubQuestionGrade => ({
    index: i + 1,
    text: q,
    coverage: 0,
    confidence: 0,
    missing: [q],
    sufficient: false,
  });
  if (state.evidence.length === 0 && !state.calls.some((c) => c.rows?.length)) {
    return { subQuestions: questions.map(empty), sufficient: false, threshold, usage: [] };
  }
  const answers = options.answer === true;
  const plans = options.plan === true;
  const format = replyFormat(answers, plans);
  const { value, usage } = await generateStructured<GradeReply & Partial<GradeNextReply>>({
    role: "grader",
    model: options.model,
    schema: format.schema as z.ZodType<GradeReply & Partial<GradeNextReply>>,
    name: format.name,
    prompt: graderPrompt(state, questions, { answer: answers, plan: plans }),
    // A grader may leave out a field it has no use for (no answer, no searches).
    defaults: { ...(answers ? { answer: null } : {}), ...(plans ? { searches: null } : {}) },
    question: state.question,
    signal: options.signal,
    settings: options.settings,
  });
  const grades = questions.map((text, i): SubQuestionGrade => {
    const judged = value.subQuestions.find((g) => g.index === i + 1);
    if (!judged) return empty(text, i);
    const supporting = judged.supporting.map((n) => state.evidence[n - 1]).filter((e) => e !== undefined);
    const hasRows = state.calls.some((c) => c.rows?.length);
    // Coverage claimed without a single real supporting passage (or rows) is not trusted.
    const coverage = supporting.length > 0 || hasRows ? clamp01(judged.coverage) : 0;
    const confidence = supporting.reduce((best, e) => Math.max(best, clamp01(e.score)), 0);
    return {
      index: i + 1,
      text,
      coverage,
      confidence,
      missing: judged.missing.filter((m) => m.trim().length > 0),
      sufficient: coverage >= threshold,
    };
  });
  const sufficient = grades.every((g) => g.sufficient);
  // Searches proposed only when the grades fall short (the threshold is the engine's, not the model's).
  const searches =
    plans && !sufficient && Array.isArray(value.searches)
      ? [...new Set(value.searches.map((q) => q.trim()).filter(Boolean))].slice(0, MAX_SEARCHES)
      : undefined;
  // An explicit [] from the grader: nothing more is worth searching.
  const done = searches !== undefined && searches.length === 0;
  const draft = value.answer ? toDraftAnswer(value.answer, []) : undefined;
  // A draft counts when the grades hold up and it answers, or, once the grader is done, as partial or refused.
  const answer =
    draft && ((sufficient && draft.status === "answered") || (done && draft.status !== "answered")) ? draft : undefined;
  return {
    subQuestions: grades,
    sufficient,
    threshold,
    ...(done ? { done } : {}),
    ...(answer ? { answer } : {}),
    ...(searches ? { searches } : {}),
    usage,
  };
}
