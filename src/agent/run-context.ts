import type { StopReason, Usage } from "../spec/answer.js";
import type { AgentState, EngineContext, LlmUsage, WithUsage } from "../spec/engine.js";
import { entityKey, type GraphEntity, graphOf } from "../spec/graph.js";
import type { Passage } from "../spec/passage.js";
import { tableStoreOf } from "../spec/store.js";
import type { ToolResult } from "../spec/tool-result.js";
import type { ToolCallRequest, TraceEvent } from "../spec/trace.js";
import { readsOf } from "../tools/define-tool.js";
import { executeToolCall } from "../tools/execute-tool-call.js";
import { searchEntityTool } from "../tools/search-entity.js";
import { createToolset, type Toolset } from "../tools/toolset.js";
import { createTraceRecorder, type TraceEventInput, type TraceRecorder } from "../trace/recorder.js";
import { onAbort } from "../util/on-abort.js";
import { stableJson } from "../util/stable-json.js";
import { toolCallEnd } from "./execute-calls.js";
import type { ResolvedSettings, RunAgentOptions } from "./options.js";
import {
  costBudget,
  firstStop,
  type LoopSnapshot,
  type StopCondition,
  spendCap,
  timeout,
  tokenBudget,
} from "./stop-conditions.js";

/** How an engine call went: a value, a budget or signal that kept it from running, or an exception. */
export type Outcome<T> =
  | { kind: "ok"; value: T }
  | { kind: "stopped"; reason: StopReason }
  | { kind: "failed"; error: unknown };

/** What the next piece of work is, for the budget check before it starts. */
export type WorkKind = "engine" | "answer" | "tool";

class RunDeadline extends Error {
  constructor(ms: number) {
    super(`the run passed its time budget of ${ms} ms`);
    this.name = "RunDeadline";
  }
}

/** The mutable state of one run: settings, agent state, usage, budgets, and the events not yet yielded. */
export class RunContext {
  readonly state: AgentState;
  readonly usage: Usage = { llmCalls: 0, toolCalls: 0, probes: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  readonly recorder: TraceRecorder;
  readonly toolset: Toolset;
  /** The tools probes run: the run's `search`, and `search_entity` for name checks. */
  private readonly probeTools: Toolset;
  /** Probe results by call, so an engine asking the same thing twice in a run does not search twice. */
  private readonly probed = new Map<string, Promise<ToolResult | undefined>>();
  readonly now: () => number;
  readonly newId: () => string;
  /** Steps that ran a plan (or the single retrieval pass). */
  stepsRun = 0;
  private readonly controller = new AbortController();
  private readonly buffer: TraceEvent[] = [];
  private held: { event: TraceEventInput; at: number }[] | undefined;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly offCallerAbort: () => void;
  /** The largest single engine call seen: what the next one is expected to cost. */
  private readonly estimate = { tokens: 0, costUsd: 0, ms: 0 };

  constructor(
    readonly options: RunAgentOptions,
    readonly settings: ResolvedSettings,
  ) {
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? (() => crypto.randomUUID());
    const runId = this.newId();
    this.recorder = createTraceRecorder({ runId, now: this.now });
    this.toolset = options.toolset ?? createToolset({ sources: options.sources });
    this.probeTools = createToolset({ sources: options.sources, tools: [searchEntityTool] });
    this.state = {
      runId,
      question: options.question,
      standaloneQuestion: options.question,
      history: options.history ?? [],
      sources: options.sources,
      tools: this.toolset.descriptors(),
      sqlDialect: tableStoreOf(options.store)?.sqlDialect,
      step: 0,
      maxSteps: settings.limits.maxSteps,
      preset: settings.preset,
      evidence: [],
      calls: [],
      subQuestions: [],
      forceAnswer: false,
    };
    if (options.signal?.aborted) this.controller.abort(options.signal.reason);
    // One listener per caller signal however many runs share it (see util/on-abort.ts).
    const callerSignal = options.signal;
    this.offCallerAbort = callerSignal
      ? onAbort(callerSignal, () => this.controller.abort(callerSignal.reason))
      : () => {};
    const ms = settings.limits.timeoutMs;
    this.timer = setTimeout(() => this.controller.abort(new RunDeadline(ms)), Math.min(ms, 2 ** 31 - 1));
    this.timer.unref?.();
  }

  get runId(): string {
    return this.state.runId;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the run's signal fired: the caller aborted, or the time budget ran out. */
  interruption(): StopReason | undefined {
    if (this.options.signal?.aborted) return "aborted";
    return this.controller.signal.aborted ? "timeout" : undefined;
  }

  elapsed(): number {
    return this.now() - this.recorder.startedAt;
  }

  /** Records an event (stamped now, or at `at`) for the next drain; held back while `hold()` is on. */
  emit(event: TraceEventInput, at?: number): void {
    if (this.held) {
      this.held.push({ event, at: at ?? this.now() });
      return;
    }
    this.buffer.push(this.recorder.record(event, at));
  }

  /** Sends an event with the next drain without keeping it in the run's trace (a streamed draft's deltas). */
  preview(event: TraceEventInput): void {
    this.buffer.push(this.recorder.stamp(event));
  }

  /** Holds events back (e.g. the rewrite's, which happen before run-start can be written). */
  hold(): void {
    this.held ??= [];
  }

  /** Records `first`, then the events held back, in order. */
  release(first: TraceEventInput, at: number): void {
    const held = this.held ?? [];
    this.held = undefined;
    this.emit(first, at);
    for (const h of held) this.emit(h.event, h.at);
  }

  /** Yields the events recorded since the last drain. */
  *drain(): Generator<TraceEvent> {
    while (this.buffer.length > 0) yield this.buffer.shift()!;
  }

  /** The loop's view for stop conditions; the reserve covers the next engine call and the answer. */
  snapshot(latest: { newCalls: number; planDone: boolean }): LoopSnapshot {
    return {
      step: this.stepsRun,
      toolCalls: this.usage.toolCalls,
      tokens: this.usage.inputTokens + this.usage.outputTokens,
      costUsd: this.usage.costUsd,
      elapsedMs: this.elapsed(),
      reserve: this.reserve("engine"),
      lastGrade: this.state.lastGrade,
      ...latest,
    };
  }

  /** Hard budgets, checked before any work starts: the reason not to start it, if any. */
  budgetStop(kind: WorkKind): StopReason | undefined {
    const interrupted = this.interruption();
    if (interrupted) return interrupted;
    const { limits } = this.settings;
    const conditions: StopCondition[] =
      kind === "tool"
        ? [timeout(limits.timeoutMs)]
        : [
            timeout(limits.timeoutMs),
            tokenBudget(limits.maxTokens),
            costBudget(limits.maxCostUsd),
            ...(this.options.spendCapUsd === undefined ? [] : [spendCap(this.options.spendCapUsd)]),
          ];
    return firstStop(conditions, { ...this.snapshot({ newCalls: 1, planDone: false }), reserve: this.reserve(kind) });
  }

  private reserve(kind: WorkKind): LoopSnapshot["reserve"] {
    const e = this.estimate;
    // Another engine call must leave room for the answer; the answer itself only needs room for one call.
    if (kind === "engine") return { tokens: 2 * e.tokens, costUsd: 2 * e.costUsd, ms: 2 * e.ms };
    if (kind === "answer") return { tokens: e.tokens, costUsd: e.costUsd, ms: 0 };
    return { tokens: 0, costUsd: 0, ms: 0 };
  }

  /** Runs one engine call under the budgets and the run's signal; records its usage as llm-call events. */
  async callEngine<T>(
    kind: "engine" | "answer",
    call: (ctx: EngineContext) => Promise<WithUsage<T>>,
  ): Promise<Outcome<WithUsage<T>>> {
    const stop = this.budgetStop(kind);
    if (stop) return { kind: "stopped", reason: stop };
    const started = this.now();
    try {
      const value = await raceSignal(
        call({ signal: this.signal, probe: this.probe, entity: this.entity }),
        this.signal,
      );
      this.recordUsage(value.usage ?? [], this.now() - started);
      return { kind: "ok", value };
    } catch (error) {
      const interrupted = this.interruption();
      if (interrupted) return { kind: "stopped", reason: interrupted };
      return { kind: "failed", error };
    }
  }

  private recordUsage(entries: readonly LlmUsage[], ms: number): void {
    let tokens = 0;
    let costUsd = 0;
    for (const u of entries) {
      this.usage.llmCalls++;
      this.usage.inputTokens += u.inputTokens;
      this.usage.outputTokens += u.outputTokens;
      this.usage.costUsd += u.costUsd;
      tokens += u.inputTokens + u.outputTokens;
      costUsd += u.costUsd;
      this.emit({ type: "llm-call", step: this.state.step, ...u });
    }
    this.estimate.tokens = Math.max(this.estimate.tokens, tokens);
    this.estimate.costUsd = Math.max(this.estimate.costUsd, costUsd);
    this.estimate.ms = Math.max(this.estimate.ms, ms);
  }

  /**
   * One look-up the engine makes to decide, run like any tool call: through the executor (principal, ACL,
   * time limit, cache), traced as a `probe` call, counted in `usage.probes` and capped by `limits.maxProbes`.
   * The same probe twice in a run is answered from the first. `undefined` when the budget is spent, the run
   * is stopping, or the call failed.
   */
  private async runProbe(tool: string, args: Record<string, unknown>): Promise<ToolResult | undefined> {
    const key = `${tool}\u0000${stableJson(args)}`;
    const earlier = this.probed.get(key);
    if (earlier) return earlier;
    if ((this.usage.probes ?? 0) >= this.settings.limits.maxProbes || this.budgetStop("tool")) return undefined;
    this.usage.probes = (this.usage.probes ?? 0) + 1;
    const call: ToolCallRequest = { callId: this.newId(), tool, args, purpose: "probe" };
    const step = this.state.step;
    this.emit({ type: "tool-call-start", step, call, reads: readsOf(this.probeTools.get(tool)) });
    const running = this.callTool(call, this.probeTools).then(({ result, ms }) => {
      this.emit(toolCallEnd(step, call, result, ms));
      return PROBE_FAILED.has(result.status) ? undefined : result;
    });
    this.probed.set(key, running);
    return running;
  }

  /** A read-only probe search, never wider than the sources the principal may read. */
  private readonly probe = async (
    query: string,
    options: { sources?: string[]; k?: number },
  ): Promise<Passage[] | undefined> => {
    const readable = this.options.sources.map((s) => s.name);
    const wanted = options.sources?.length ? options.sources.filter((s) => readable.includes(s)) : readable;
    if (wanted.length === 0) return [];
    const k = Math.min(20, Math.max(1, Math.floor(options.k ?? 5)));
    const corpora = wanted.length === readable.length ? [undefined] : wanted;
    const found: Passage[] = [];
    for (const corpus of corpora) {
      const result = await this.runProbe("search", { query, k, ...(corpus ? { corpus } : {}) });
      if (result === undefined) return undefined;
      found.push(...(result.passages ?? []));
    }
    return corpora.length === 1 ? found : found.sort((a, b) => b.score - a.score).slice(0, k);
  };

  /** An exact entity of the graph, looked up by a `search_entity` probe under the principal's ACL. */
  private readonly entity = async (value: string) => {
    if (!graphOf(this.options.store)) return undefined;
    const result = await this.runProbe("search_entity", { value, k: 3, evidence: 3 });
    if (result === undefined) return undefined;
    const key = entityKey(value);
    const entity = (result.rows ?? []).find((row) => row.key === key) as GraphEntity | undefined;
    if (!entity) return undefined;
    const defined =
      entity.type === "title" ||
      (result.passages ?? []).some((p) => p.title !== undefined && entityKey(p.title) === key);
    return { entity, defined };
  };

  /** Runs one tool call under the principal of this run (never one from the arguments). */
  async callTool(call: ToolCallRequest, toolset = this.toolset): Promise<{ result: ToolResult; ms: number }> {
    const started = this.now();
    const execute = this.options.executeTool ?? executeToolCall;
    const result = await execute(
      toolset,
      call,
      {
        principal: this.options.principal,
        retriever: this.options.retriever,
        store: this.options.store,
        sources: this.options.sources,
        signal: this.signal,
        lowConfidence: this.settings.presetSettings.search.lowConfidence,
      },
      { timeoutMs: this.settings.limits.toolTimeoutMs },
    );
    return { result, ms: Math.max(0, this.now() - started) };
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.offCallerAbort();
  }
}

/** Probe outcomes that say nothing about the knowledge base (the caller decides without them). */
const PROBE_FAILED: ReadonlySet<ToolResult["status"]> = new Set(["error", "timeout", "rate_limited", "denied"]);

/** Settles with the promise, or rejects as soon as the signal fires (an engine that ignores it cannot hold the run). */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const off = onAbort(signal, () => reject(signal.reason));
    promise.then(
      (value) => {
        off();
        resolve(value);
      },
      (error: unknown) => {
        off();
        reject(error);
      },
    );
  });
}
