/**
 * The grader: the model judges, per sub-question, how much of what it needs the passages state and which
 * passages support it; the engine turns that into sufficiency against a threshold that falls as steps pass.
 */

import type { AgentState, GradeResult, Preset, WithUsage } from "../spec/engine.js";
import type { SubQuestionGrade } from "../spec/trace.js";
import type { CallSettings } from "./call.js";
import { graderPrompt } from "./prompts.js";
import type { ResolvedModel } from "./resolve.js";
import { gradeReplySchema } from "./schemas.js";
import { generateStructured } from "./structured.js";

const BASE_THRESHOLD: Record<Preset, number> = { conservative: 0.85, balanced: 0.75, thorough: 0.9 };
const FLOOR = 0.5;

/** The coverage a sub-question needs at this step: strict at first, easing by 0.05 a step to a floor. */
export function coverageThreshold(options: { preset: Preset; step: number }): number {
  const eased = BASE_THRESHOLD[options.preset] - 0.05 * Math.max(0, options.step - 1);
  return Math.round(Math.max(FLOOR, eased) * 100) / 100;
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

export function subQuestionsOf(state: Pick<AgentState, "subQuestions" | "standaloneQuestion" | "question">): string[] {
  if (state.subQuestions.length > 0) return state.subQuestions;
  return [state.standaloneQuestion || state.question];
}

export async function gradeEvidence(options: {
  state: AgentState;
  model: ResolvedModel;
  signal: AbortSignal;
  settings: CallSettings;
}): Promise<WithUsage<GradeResult>> {
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
  const { value, usage } = await generateStructured({
    role: "grader",
    model: options.model,
    schema: gradeReplySchema,
    name: "evidence_grade",
    prompt: graderPrompt(state, questions),
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
  return { subQuestions: grades, sufficient: grades.every((g) => g.sufficient), threshold, usage };
}
