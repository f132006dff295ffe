import type { Answer, StopReason } from "../spec/answer.js";
import type { RouteDecision } from "../spec/engine.js";
import { hasCapability, type RunRecord } from "../spec/store.js";
import type { TraceEvent } from "../spec/trace.js";
import { exportRunSpans } from "../trace/otel.js";
import { agentLoop } from "./agent-loop.js";
import { answerPhase, describeError, type FinalContent, type LoopEnd } from "./answer-phase.js";
import { answerSteps } from "./answer-steps.js";
import { checkpoint } from "./checkpoints.js";
import { type RunAgentOptions, resolveSettings } from "./options.js";
import { ragPass } from "./rag-pass.js";
import { refusal } from "./refusal.js";
import { RunContext } from "./run-context.js";

/** Reasons after which no further search may start. */
const HARD_STOPS = new Set<StopReason>([
  "aborted",
  "timeout",
  "token_budget",
  "cost_budget",
  "max_tool_calls",
  "max_steps",
  "spend_cap",
]);

/**
 * Answers a question with a bounded agent: streams trace events, returns the Answer. Never throws once the
 * options are valid: failures become error events and a refusal (or a fallback answer).
 */
export async function* runAgent(options: RunAgentOptions): AsyncGenerator<TraceEvent, Answer> {
  const run = new RunContext(options, resolveSettings(options));
  try {
    return yield* drive(run);
  } finally {
    run.dispose();
  }
}

/** Runs the agent to the end and returns the Answer; `onEvent` sees every trace event. */
export async function askAgent(options: RunAgentOptions & { onEvent?: (event: TraceEvent) => void }): Promise<Answer> {
  const events = runAgent(options);
  let next = await events.next();
  while (!next.done) {
    options.onEvent?.(next.value);
    next = await events.next();
  }
  return next.value;
}

async function* drive(run: RunContext): AsyncGenerator<TraceEvent, Answer> {
  const { state, options, settings } = run;
  const { engine } = options;
  const model = options.modelName ?? engine.name;
  let final: FinalContent;
  try {
    run.hold();
    if (state.history.length > 0) {
      const rewritten = await run.callEngine("engine", (ctx) => engine.rewrite(state.question, state.history, ctx));
      if (rewritten.kind === "ok" && rewritten.value.standalone?.trim())
        state.standaloneQuestion = rewritten.value.standalone.trim();
      if (rewritten.kind === "failed") {
        run.emit({
          type: "error",
          step: 0,
          ...describeError(rewritten.error, "rewriting the question failed; using it as asked"),
        });
      }
    }
    const { question, standaloneQuestion } = state;
    run.release(
      { type: "run-start", step: 0, question, standaloneQuestion, mode: settings.mode, model },
      run.recorder.startedAt,
    );
    yield* run.drain();

    // An engine that routes after one search sees its passages, and may answer an easy question at once.
    const first =
      settings.mode === "auto" && engine.searchFirst === true
        ? yield* ragPass(run, "search first: the router reads what one search of the question finds")
        : undefined;
    const decision = first?.refuse ? undefined : yield* decideRoute(run);
    if (decision === undefined) {
      // Routing was stopped before it ran (by the caller, the clock or a budget), or the first search already refused.
      final = yield* answerPhase(
        run,
        first?.refuse ? first : { reason: run.budgetStop("engine") ?? "aborted", refuse: true },
      );
    } else if (decision.route === "none") {
      final = yield* replyWithoutRetrieval(run, decision);
    } else {
      let end: LoopEnd;
      let searched = first;
      // The router's draft cites the evidence it saw: it holds until something searches again.
      let draft = decision.route === "rag" ? decision.answer : undefined;
      while (true) {
        if (decision.route === "rag") end = searched ?? (yield* ragPass(run));
        else end = yield* agentLoop(run);
        searched = undefined;
        if (end.reason === "fallback") {
          const pass = yield* ragPass(run, "fallback: single retrieval pass after the planner failed");
          end = pass.refuse ? pass : { reason: "fallback" };
        }
        if (!end.refuse && settings.checkpoints.beforeAnswer) {
          const asked = yield* checkpoint(run, "before_answer");
          if (asked.action === "stop")
            end = { reason: "aborted", refuse: true, detail: "The before_answer checkpoint said stop." };
          else if (asked.action === "rephrase" && canSearchAgain(run, end)) {
            state.rephrase = asked.query;
            draft = undefined;
            continue;
          }
        }
        break;
      }
      final = yield* answerPhase(run, draft && !end.refuse ? { ...end, draft } : end);
    }
  } catch (error) {
    run.emit({ type: "error", step: state.step, ...describeError(error, "the run failed") });
    const stopReason = run.interruption() ?? "insufficient_evidence";
    const { text, reason } = refusal({
      state,
      stopReason,
      detail: "An internal error stopped the run.",
      toolset: run.toolset,
    });
    final = { status: "refused", text, citations: [], stopReason, reason };
  }
  return yield* finish(run, final, model);
}

/** The route: forced by the mode, or the engine's choice (`rag` when it fails). Undefined when stopped. */
async function* decideRoute(run: RunContext): AsyncGenerator<TraceEvent, RouteDecision | undefined> {
  const { mode } = run.settings;
  let decision: RouteDecision;
  if (mode === "rag") decision = { route: "rag", reason: "mode rag: one retrieval pass" };
  else if (mode === "agentic") decision = { route: "agentic", reason: "mode agentic: the planning loop" };
  else {
    const routed = await run.callEngine("engine", (ctx) => run.options.engine.route(run.state, ctx));
    if (routed.kind === "stopped") {
      yield* run.drain();
      return undefined;
    }
    if (routed.kind === "ok" && ["none", "rag", "agentic"].includes(routed.value.route)) decision = routed.value;
    else {
      const error =
        routed.kind === "failed"
          ? routed.error
          : new TypeError(`unknown route '${String((routed as { value: RouteDecision }).value.route)}'`);
      run.emit({ type: "error", step: 0, ...describeError(error, "routing failed; using one retrieval pass") });
      decision = { route: "rag", reason: "routing failed: one retrieval pass" };
    }
  }
  run.emit({ type: "route", step: run.state.step, route: decision.route, reason: decision.reason });
  yield* run.drain();
  return decision;
}

/** Route `none`: the router's reply, else the answerer's with no evidence; no citations. */
async function* replyWithoutRetrieval(
  run: RunContext,
  decision: RouteDecision,
): AsyncGenerator<TraceEvent, FinalContent> {
  let text = decision.reply?.trim() ?? "";
  if (text === "") {
    const drafted = await run.callEngine("answer", (ctx) => run.options.engine.answer(run.state, ctx));
    yield* run.drain();
    if (drafted.kind === "ok") text = drafted.value.claims.map((c) => c.text.trim()).join(" ");
    if (drafted.kind === "failed")
      run.emit({ type: "error", step: 0, ...describeError(drafted.error, "the answerer failed") });
    if (drafted.kind === "stopped" || text === "") {
      return yield* answerPhase(run, {
        reason: drafted.kind === "stopped" ? drafted.reason : "no_retrieval_needed",
        refuse: true,
      });
    }
  }
  run.emit({ type: "answer-delta", step: 0, text });
  yield* run.drain();
  return { status: "answered", text, citations: [], stopReason: "no_retrieval_needed" };
}

function canSearchAgain(run: RunContext, end: LoopEnd): boolean {
  const { limits } = run.settings;
  return !HARD_STOPS.has(end.reason) && run.stepsRun < limits.maxSteps && run.usage.toolCalls < limits.maxToolCalls;
}

/** answer-end, then run-end; the run is saved (ending with run-end) and exported as spans. */
async function* finish(run: RunContext, final: FinalContent, model: string): AsyncGenerator<TraceEvent, Answer> {
  const { state, options } = run;
  const usage = { ...run.usage };
  const answer: Answer = {
    ...final,
    evidence: state.evidence,
    steps: answerSteps(run.recorder.events, run.stepsRun),
    stepCount: run.stepsRun,
    usage,
    latencyMs: Math.max(0, run.elapsed()),
    runId: run.runId,
    traceId: run.runId,
    model,
  };
  run.emit({ type: "answer-end", step: state.step, answer });
  const at = run.now();
  const runEnd = {
    type: "run-end",
    step: state.step,
    stopReason: answer.stopReason,
    usage,
    ms: answer.latencyMs,
  } as const;
  if (options.persist !== false) {
    const record: RunRecord = {
      runId: run.runId,
      tenant: options.principal.tenant,
      user: options.principal.user,
      question: state.question,
      startedAt: isoTime(run.recorder.startedAt),
      events: [...run.recorder.events, run.recorder.stamp(runEnd, at)],
      answer,
      // What the principal could read then: reading the trace later re-checks the reader's rights to it.
      sources: options.sources.map((s) => s.name),
    };
    try {
      if (hasCapability(options.store, "runs")) await options.store.saveRun(record);
    } catch (error) {
      run.emit({ type: "error", step: state.step, ...describeError(error, "saving the run failed") });
    }
  }
  run.emit(runEnd, at);
  try {
    exportRunSpans({ events: run.recorder.events, startedAt: run.recorder.startedAt, tracer: options.tracer });
  } catch {
    // Telemetry must never change the answer.
  }
  yield* run.drain();
  return answer;
}

function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? new Date().toISOString() : date.toISOString();
}
