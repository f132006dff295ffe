import type { TraceEvent } from "../spec/trace.js";
import { describeError, type LoopEnd } from "./answer-phase.js";
import { checkpoint, dueCheckpoints } from "./checkpoints.js";
import { executeCalls } from "./execute-calls.js";
import type { RunContext } from "./run-context.js";
import { selectCalls } from "./select-calls.js";
import {
  costBudget,
  evidenceSufficient,
  firstStop,
  isStepCount,
  timeout,
  tokenBudget,
  toolCallCount,
} from "./stop-conditions.js";

/**
 * The bounded loop: plan -> run the new calls -> grade -> checkpoints -> stop conditions, step by step.
 * Returns why it ended; the answer is the caller's next phase.
 */
export async function* agentLoop(run: RunContext): AsyncGenerator<TraceEvent, LoopEnd> {
  const { limits, checkpoints } = run.settings;
  const { engine } = run.options;
  const { state } = run;
  const afterStep = [
    evidenceSufficient(),
    timeout(limits.timeoutMs),
    tokenBudget(limits.maxTokens),
    costBudget(limits.maxCostUsd),
    toolCallCount(limits.maxToolCalls),
    isStepCount(limits.maxSteps),
  ];
  while (true) {
    state.step = run.stepsRun + 1;
    state.forceAnswer = state.step >= limits.maxSteps;

    let plan = await run.callEngine("engine", (ctx) => engine.plan(state, ctx));
    if (plan.kind === "failed") {
      run.emit({ type: "error", step: state.step, ...describeError(plan.error, "the planner failed; retrying once") });
      plan = await run.callEngine("engine", (ctx) => engine.plan(state, ctx));
    }
    yield* run.drain();
    if (plan.kind === "stopped") return { reason: plan.reason, refuse: plan.reason === "aborted" };
    if (plan.kind === "failed") {
      run.emit({
        type: "error",
        step: state.step,
        ...describeError(plan.error, "the planner failed twice; answering from one retrieval pass"),
      });
      yield* run.drain();
      return { reason: "fallback" };
    }

    run.stepsRun++;
    const planned = plan.value;
    state.subQuestions = planned.subQuestions ?? [];
    state.rephrase = undefined;
    const selected = selectCalls({
      planned: planned.calls ?? [],
      previous: state.calls,
      toolset: run.toolset,
      remaining: limits.maxToolCalls - run.usage.toolCalls,
      newId: run.newId,
    });
    const notes = [
      selected.repeated > 0 ? `skipped ${selected.repeated} repeated call(s)` : "",
      selected.overBudget > 0 ? `dropped ${selected.overBudget} call(s) over the tool-call budget` : "",
    ].filter(Boolean);
    run.emit({
      type: "plan",
      step: state.step,
      thought: notes.length > 0 ? `${planned.thought} [${notes.join("; ")}]` : planned.thought,
      subQuestions: state.subQuestions,
      calls: selected.accepted,
    });
    yield* run.drain();
    if (selected.accepted.length === 0) {
      if (planned.done) return { reason: "answered" };
      return { reason: selected.overBudget > 0 ? "max_tool_calls" : "no_progress" };
    }

    const toolCallsBefore = run.usage.toolCalls;
    const executed = yield* executeCalls(run, selected.accepted);
    if (executed.interrupted) return { reason: executed.interrupted, refuse: executed.interrupted === "aborted" };

    const grade = await run.callEngine("engine", (ctx) => engine.grade(state, ctx));
    let drafted: LoopEnd["draft"];
    let graderDone = false;
    if (grade.kind === "stopped") {
      yield* run.drain();
      return { reason: grade.reason, refuse: grade.reason === "aborted" };
    }
    if (grade.kind === "ok") {
      const { subQuestions, sufficient, threshold } = grade.value;
      state.lastGrade = { subQuestions, sufficient, threshold };
      drafted = grade.value.answer;
      graderDone = grade.value.done === true;
      run.emit({ type: "grade", step: state.step, subQuestions, sufficient, threshold });
    } else {
      run.emit({
        type: "error",
        step: state.step,
        ...describeError(grade.error, "the grader failed; going on ungraded"),
      });
    }
    yield* run.drain();

    const due = dueCheckpoints({
      settings: checkpoints,
      results: executed.results,
      toolCallsBefore,
      toolCallsAfter: run.usage.toolCalls,
    });
    for (const kind of due) {
      const decision = yield* checkpoint(run, kind);
      if (decision.action === "stop")
        return { reason: "aborted", refuse: true, detail: `The ${kind} checkpoint said stop.` };
      if (decision.action === "answer_now") return { reason: "answered" };
      if (decision.action === "rephrase") state.rephrase = decision.query;
    }

    const stop = firstStop(afterStep, run.snapshot({ newCalls: selected.accepted.length, planDone: planned.done }));
    // A grader that found the evidence sufficient, or nothing more worth searching, may have answered in the same call.
    if (drafted && (stop === "evidence_sufficient" || graderDone))
      return { reason: stop ?? "answered", draft: drafted };
    if (stop) return { reason: stop };
    if (graderDone) return { reason: "answered" };
    if (planned.done) return { reason: "answered" };
  }
}
