import type {
  AgentEngineV1,
  AgentState,
  DraftAnswer,
  GradeResult,
  LlmUsage,
  PlanResult,
  RouteDecision,
} from "../../spec/engine.js";

type Method = "rewrite" | "route" | "plan" | "grade" | "answer";
type Maybe<T> = T | Promise<T>;

export interface EngineCall {
  method: Method;
  step: number;
  forceAnswer: boolean;
  evidence: number;
  rephrase?: string;
  maxSteps: number;
}

/** What each method does; `n` counts the calls of that method, from 0. Omitted methods use simple defaults. */
export interface EngineScript {
  rewrite?: (question: string, n: number) => Maybe<string>;
  route?: (state: AgentState, n: number) => Maybe<RouteDecision>;
  plan?: (state: AgentState, n: number) => Maybe<PlanResult>;
  grade?: (state: AgentState, n: number) => Maybe<GradeResult>;
  answer?: (state: AgentState, n: number) => Maybe<DraftAnswer>;
  /** Usage reported per call (none when absent). */
  usage?: (role: LlmUsage["role"]) => Omit<LlmUsage, "role">;
  /** Route after one search of the question (`AgentEngineV1.searchFirst`). */
  searchFirst?: boolean;
}

export interface ScriptedEngine extends AgentEngineV1 {
  readonly calls: EngineCall[];
}

const ROLE: Record<Method, LlmUsage["role"]> = {
  rewrite: "rewriter",
  route: "router",
  plan: "planner",
  grade: "grader",
  answer: "answerer",
};

/** An engine for tests that follows a script and records every call. */
export function createScriptedEngine(script: EngineScript = {}, name = "scripted"): ScriptedEngine {
  const calls: EngineCall[] = [];
  const counts: Record<Method, number> = { rewrite: 0, route: 0, plan: 0, grade: 0, answer: 0 };
  const track = (method: Method, state?: AgentState): number => {
    calls.push({
      method,
      step: state?.step ?? 0,
      forceAnswer: state?.forceAnswer ?? false,
      evidence: state?.evidence.length ?? 0,
      maxSteps: state?.maxSteps ?? 0,
      ...(state?.rephrase !== undefined ? { rephrase: state.rephrase } : {}),
    });
    return counts[method]++;
  };
  const withUsage = <T extends object>(method: Method, value: T) => {
    const u = script.usage?.(ROLE[method]);
    return u ? { ...value, usage: [{ role: ROLE[method], ...u }] } : value;
  };
  return {
    specificationVersion: "v1",
    name,
    calls,
    ...(script.searchFirst !== undefined ? { searchFirst: script.searchFirst } : {}),
    async rewrite(question, _history) {
      const n = track("rewrite");
      return withUsage("rewrite", { standalone: script.rewrite ? await script.rewrite(question, n) : question });
    },
    async route(state) {
      const n = track("route", state);
      return withUsage("route", script.route ? await script.route(state, n) : { route: "agentic", reason: "scripted" });
    },
    async plan(state) {
      const n = track("plan", state);
      const plan: PlanResult = script.plan
        ? await script.plan(state, n)
        : {
            thought: "search it",
            subQuestions: [state.standaloneQuestion],
            calls: [{ tool: "search", args: { query: state.standaloneQuestion } }],
            done: false,
          };
      return withUsage("plan", plan);
    },
    async grade(state) {
      const n = track("grade", state);
      const sufficient = state.evidence.length > 0;
      const grade: GradeResult = script.grade
        ? await script.grade(state, n)
        : {
            subQuestions: [
              {
                index: 0,
                text: state.standaloneQuestion,
                coverage: sufficient ? 1 : 0,
                confidence: 1,
                missing: [],
                sufficient,
              },
            ],
            sufficient,
            threshold: 0.5,
          };
      return withUsage("grade", grade);
    },
    async answer(state) {
      const n = track("answer", state);
      if (script.answer) return withUsage("answer", await script.answer(state, n));
      const first = state.evidence[0];
      const draft: DraftAnswer = first
        ? { status: "answered", claims: [{ text: first.text, citations: [{ n: 1, quote: first.text.slice(0, 30) }] }] }
        : { status: "refused", claims: [], reason: "no evidence" };
      return withUsage("answer", draft);
    },
  };
}
