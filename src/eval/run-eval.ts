import type { Answer } from "../spec/answer.js";
import type { Principal } from "../spec/principal.js";
import type { TraceEvent } from "../spec/trace.js";
import { type Aggregates, aggregateAll, deltas } from "./aggregate.js";
import { attributeFailure, type Failure } from "./attribution.js";
import { type LoadedSet, principalFor } from "./load-set.js";
import { rankedEvidence } from "./metrics/ranked-evidence.js";
import { searchedSources } from "./metrics/tool-selection.js";
import type { EvalQuestion } from "./schema.js";
import { type QuestionMetrics, scoreQuestion } from "./score-question.js";

export type AskFn = (q: EvalQuestion, principal: Principal) => Promise<{ answer: Answer; events: TraceEvent[] }>;

export interface QuestionResult {
  id: string;
  type: string;
  question: string;
  /** `null` when the run threw. */
  answer: Answer | null;
  events: TraceEvent[];
  metrics: QuestionMetrics;
  failure: Failure | null;
  /** Sources searched and distinct document/row ids retrieved, in rank order. */
  searched: string[];
  retrieved: string[];
  /** The thrown error's message, when the run failed. */
  error?: string;
}

export interface RunSummary {
  results: QuestionResult[];
  aggregates: Aggregates;
}

export interface EvalReport extends RunSummary {
  version: 1;
  set: { name: string; dir: string; tenant: string; questions: number; total: number };
  startedAt: string;
  finishedAt: string;
  baseline?: RunSummary;
  /** Overall `run - baseline` per metric, when a baseline ran. */
  deltas?: Record<string, number | null>;
}

export interface RunEvalOptions {
  set: LoadedSet;
  ask: AskFn;
  /** A second system run over the same questions, reported side by side. */
  baselineAsk?: AskFn;
  /** Only the first `limit` questions (after `split`). */
  limit?: number;
  /**
   * Half of the set: `dev` the questions at even positions (0, 2, ...), `test` those at odd ones. Tune on one
   * half, check on the other, so a change is judged on questions it was not made for.
   */
  split?: "dev" | "test";
  /** Questions in flight at once (default 1). */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
  /** Clock, for tests. */
  now?: () => number;
}

/** Scores of a run that threw: wrong, and nothing retrieved where retrieval was due. */
function errorMetrics(q: EvalQuestion, latencyMs: number): QuestionMetrics {
  const retrieval = q.gold_sources.length > 0 ? 0 : null;
  return {
    answer_correct: 0,
    refusal_accurate: 0,
    false_refusal: null,
    unanswerable_refused: null,
    confidence: null,
    exact_match: 0,
    answer_f1: 0,
    citation_precision: null,
    citation_grounding: null,
    evidence_recall: retrieval,
    "recall@2": retrieval,
    "recall@5": retrieval,
    "recall@10": retrieval,
    "all_gold@2": retrieval,
    "all_gold@5": retrieval,
    "all_gold@10": retrieval,
    tool_precision: null,
    tool_recall: q.gold_tools.length > 0 ? 0 : null,
    sub_question_coverage: null,
    trajectory_efficiency: null,
    retrieval_rounds: 0,
    leak: null,
    tool_calls: 0,
    probes: 0,
    llm_calls: 0,
    tokens: 0,
    cost_usd: 0,
    latency_ms: latencyMs,
  };
}

async function evaluateOne(set: LoadedSet, ask: AskFn, q: EvalQuestion, now: () => number): Promise<QuestionResult> {
  const base = { id: q.id, type: q.type, question: q.question };
  const started = now();
  let run: { answer: Answer; events: TraceEvent[] };
  try {
    run = await ask(q, principalFor(set, q));
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return {
      ...base,
      answer: null,
      events: [],
      metrics: errorMetrics(q, now() - started),
      failure: { stage: "error", reason: message },
      searched: [],
      retrieved: [],
      error: message,
    };
  }
  const { answer, events } = run;
  const sourceNames = set.sources.map((s) => s.name);
  const metrics = scoreQuestion({ question: q, answer, events, sourceNames });
  const searched = searchedSources(answer, events, sourceNames);
  const retrieved = rankedEvidence(answer, events).map((u) => u.id);
  const failure = attributeFailure({ question: q, answer, events, metrics, searched, retrieved });
  return { ...base, answer, events, metrics, failure, searched, retrieved };
}

async function runAll(
  set: LoadedSet,
  ask: AskFn,
  questions: EvalQuestion[],
  concurrency: number,
  now: () => number,
  tick: () => void,
): Promise<RunSummary> {
  const results: QuestionResult[] = new Array(questions.length);
  let next = 0;
  const worker = async () => {
    while (next < questions.length) {
      const index = next++;
      results[index] = await evaluateOne(set, ask, questions[index]!, now);
      tick();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, questions.length)) }, worker));
  return { results, aggregates: aggregateAll(results) };
}

/** Asks every question of a loaded set (and of a baseline, when given), scores the answers and aggregates. */
export async function runEval(options: RunEvalOptions): Promise<EvalReport> {
  const { set, ask, baselineAsk, onProgress } = options;
  const now = options.now ?? Date.now;
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const half =
    options.split === undefined
      ? set.questions
      : set.questions.filter((_, i) => i % 2 === (options.split === "dev" ? 0 : 1));
  const questions = options.limit === undefined ? half : half.slice(0, Math.max(0, options.limit));
  const total = questions.length * (baselineAsk ? 2 : 1);
  let done = 0;
  const tick = () => onProgress?.(++done, total);
  const startedAt = new Date(now()).toISOString();
  const main = await runAll(set, ask, questions, concurrency, now, tick);
  const baseline = baselineAsk ? await runAll(set, baselineAsk, questions, concurrency, now, tick) : undefined;
  return {
    version: 1,
    set: { name: set.name, dir: set.dir, tenant: set.tenant, questions: questions.length, total: set.questions.length },
    startedAt,
    finishedAt: new Date(now()).toISOString(),
    ...main,
    ...(baseline ? { baseline, deltas: deltas(main.aggregates.overall, baseline.aggregates.overall) } : {}),
  };
}
