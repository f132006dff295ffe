/** The LLM engine: the thinking parts of the agent loop (rewrite, route, plan, grade, answer) on real models. */
import type { AgentEngineV1, AgentState, EngineContext, PlanResult } from "../spec/engine.js";
import { UpstreamError } from "../spec/errors.js";
import type { RetryPolicy, Sleep } from "../util/retry.js";
import { answerFromEvidence } from "./answer.js";
import { type AnswerStream, streamAnswer } from "./answer-stream.js";
import type { CallSettings } from "./call.js";
import { gradeEvidence } from "./grade.js";
import { planWithTools } from "./plan.js";
import { planWithText } from "./plan-text.js";
import type { ResolvedModel } from "./resolve.js";
import { rewriteQuestion } from "./rewrite.js";
import { routeQuestion } from "./route.js";

export interface LlmEngineOptions {
  planner: ResolvedModel;
  /** Defaults to the planner. */
  grader?: ResolvedModel;
  /** Defaults to the planner. */
  answerer?: ResolvedModel;
  /** Retries of a failed HTTP call (429, 5xx, dropped connection). Default 2. */
  maxRetries?: number;
  /** Per attempt. Default 60 000 ms. */
  timeoutMs?: number;
  /**
   * In mode auto, search the question once before routing: the router sees the passages and answers an easy
   * question in the same call (one model call in all). Default: true when the planner is also the answerer
   * (the router answers only then); false routes before any search.
   */
  searchFirst?: boolean;
  /** Plan with the THINKING / TOOL / PARAMS text protocol even when the planner has tool calling. */
  textProtocol?: boolean;
  /** Back-off settings besides maxRetries (tests shorten the delays). */
  retry?: Partial<Omit<RetryPolicy, "maxRetries">>;
  now?: () => number;
  sleep?: Sleep;
}

function rejectsTools(model: ResolvedModel, error: unknown): boolean {
  const local = model.provider === "ollama" || model.provider === "openai-compatible";
  return local && error instanceof UpstreamError && error.status === 400;
}

/** The v1 engine plus a streamed answer (claim text as deltas, then the validated answer). */
export interface LlmEngine extends AgentEngineV1 {
  answerStream(state: AgentState, ctx: EngineContext): AnswerStream;
}

export function createLlmEngine(options: LlmEngineOptions): LlmEngine {
  const planner = options.planner;
  const grader = options.grader ?? planner;
  const answerer = options.answerer ?? planner;
  const settings: CallSettings = {
    timeoutMs: options.timeoutMs ?? 60_000,
    retry: { ...options.retry, maxRetries: options.maxRetries ?? 2 },
    now: options.now ?? (() => performance.now()),
    sleep: options.sleep,
  };
  // A router or grader answers in its own call only when it is the answerer's model too, and a grader proposes
  // the next searches only when it is the planner's model.
  const routerAnswers = planner.id === answerer.id;
  const graderAnswers = grader.id === answerer.id;
  const graderPlans = grader.id === planner.id;
  let textProtocol = options.textProtocol === true || !planner.supportsTools;
  const plan = async (state: AgentState, ctx: EngineContext) => {
    if (textProtocol) return planWithText({ state, model: planner, signal: ctx.signal, settings });
    try {
      return await planWithTools({ state, model: planner, signal: ctx.signal, settings });
    } catch (error) {
      // A local server whose model has no tool calling rejects the request (400): plan with text from now on.
      if (!rejectsTools(planner, error)) throw error;
      textProtocol = true;
      return planWithText({ state, model: planner, signal: ctx.signal, settings });
    }
  };
  // Searches a router proposed along with route agentic, or a grader along with its grade: the next plan,
  // without another model call ([] from a grader: nothing more is worth searching).
  const proposed = new WeakMap<AgentState, { by: string; calls: PlanResult["calls"] }>();
  // Each search as wide as the first one (the loop's single pass chose its k).
  const searchCalls = (state: AgentState, queries: readonly string[]): PlanResult["calls"] => {
    const k = state.calls[0]?.call.args.k;
    return queries.map((query) => ({ tool: "search", args: { query, ...(typeof k === "number" ? { k } : {}) } }));
  };
  const route = async (state: AgentState, ctx: EngineContext) => {
    const { searches, ...decision } = await routeQuestion({
      state,
      model: planner,
      signal: ctx.signal,
      settings,
      answer: routerAnswers,
    });
    if (searches?.length) proposed.set(state, { by: "router", calls: searchCalls(state, searches) });
    return decision;
  };
  const grade = async (state: AgentState, ctx: EngineContext) => {
    const { searches, ...graded } = await gradeEvidence({
      state,
      model: grader,
      signal: ctx.signal,
      settings,
      answer: graderAnswers,
      plan: graderPlans,
    });
    proposed.delete(state);
    if (searches) proposed.set(state, { by: "grader", calls: searchCalls(state, searches) });
    return graded;
  };
  return {
    specificationVersion: "v1",
    name: planner.id,
    searchFirst: options.searchFirst ?? routerAnswers,
    rewrite: (question, history, ctx) =>
      rewriteQuestion({ question, history, model: planner, signal: ctx.signal, settings }),
    route,
    plan: (state, ctx) => {
      const next = proposed.get(state);
      proposed.delete(state);
      if (state.forceAnswer) {
        return Promise.resolve({
          thought: "Answering now.",
          subQuestions: state.subQuestions,
          calls: [],
          done: true,
          usage: [],
        });
      }
      if (next) {
        const { by, calls } = next;
        const done = calls.length === 0;
        const thought = done
          ? `The ${by} found nothing more worth searching.`
          : `Searching for what the ${by} found missing.`;
        return Promise.resolve({ thought, subQuestions: state.subQuestions, calls, done, usage: [] });
      }
      return plan(state, ctx);
    },
    grade,
    answer: (state, ctx) => answerFromEvidence({ state, model: answerer, signal: ctx.signal, settings }),
    answerStream: (state, ctx) => streamAnswer({ state, model: answerer, signal: ctx.signal, settings }),
  };
}
