import type { Logger } from "pino";
import type {
  AgentMode,
  Answer,
  CheckpointRequest,
  CheckpointSettings,
  Ferret,
  Preset,
  Principal,
  TraceEvent,
} from "../index.js";
import type { CheckpointGate } from "./checkpoint-gate.js";
import type { ServeConfig } from "./config.js";
import { OverloadedError } from "./errors.js";
import { effectiveLimits, type RequestBudgets } from "./limits/budgets.js";
import type { ServerMetrics } from "./metrics.js";

/** Who asks: the principal from the key or token (never from a body), and the key's own limits. */
export interface Caller {
  principal: Principal;
  keyId?: string;
  /** The key's daily cap in USD. */
  dailyUsd?: number;
}

export interface RunRequest {
  question: string;
  history?: { role: "user" | "assistant"; content: string }[];
  sessionId?: string;
  mode?: AgentMode;
  preset?: Preset;
  budgets?: RequestBudgets;
  checkpoints?: CheckpointSettings;
}

export interface StartOptions {
  /** The request's signal: a client that goes away aborts the run. */
  signal?: AbortSignal;
  /** Told when the run pauses at a checkpoint, before it waits. */
  onCheckpointWaiting?: (request: CheckpointRequest, timeoutMs: number) => void;
}

/**
 * Runs asks for the server's shells (HTTP, streaming, OpenAI-compatible, MCP) the same way: the caller's
 * principal, the request's budgets under the server's maxima, what is left of the daily spend caps, a
 * checkpoint gate, and one abort per run (the client's disconnect, or shutdown). Every run is drained to its
 * end, so it is saved, its cost recorded and its metrics counted even when its client left.
 */
export class RunService {
  readonly #ferret: Ferret;
  readonly #config: ServeConfig;
  readonly #metrics: ServerMetrics;
  readonly #gate: CheckpointGate;
  readonly #log: Logger;
  readonly #inFlight = new Set<AbortController>();
  readonly #idle = new Set<() => void>();
  #closed = false;

  constructor(options: {
    ferret: Ferret;
    config: ServeConfig;
    metrics: ServerMetrics;
    gate: CheckpointGate;
    logger: Logger;
  }) {
    this.#ferret = options.ferret;
    this.#config = options.config;
    this.#metrics = options.metrics;
    this.#gate = options.gate;
    this.#log = options.logger;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** What is left today of the tenant's cap and the key's, whichever is less; undefined without caps. */
  async allowance(caller: Caller): Promise<number | undefined> {
    const { tenant } = caller.principal;
    const caps: number[] = [];
    const tenantCap = this.#config.tenants[tenant]?.dailyUsd ?? this.#config.dailyUsd;
    if (tenantCap !== undefined) caps.push(tenantCap - (await this.#ferret.spend.spent({ tenant })));
    if (caller.dailyUsd !== undefined && caller.keyId !== undefined)
      caps.push(caller.dailyUsd - (await this.#ferret.spend.spent({ tenant, keyId: caller.keyId })));
    return caps.length === 0 ? undefined : Math.min(...caps);
  }

  /**
   * Starts a run and returns its events. The first event is read before this resolves, so a bad request
   * (a question over its cap, an unknown mode) rejects here, before any response is sent. The caller must
   * read the events to the end.
   */
  async start(caller: Caller, request: RunRequest, options: StartOptions = {}): Promise<AsyncGenerator<TraceEvent>> {
    if (this.#closed) throw new OverloadedError("The server is shutting down.", 5000);
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) controller.abort(options.signal.reason);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    this.#inFlight.add(controller);
    const done = () => {
      options.signal?.removeEventListener("abort", onAbort);
      this.#inFlight.delete(controller);
      if (this.#inFlight.size === 0) for (const notify of [...this.#idle]) notify();
    };
    try {
      const limits = effectiveLimits({
        requested: request.budgets,
        maxima: this.#config.maxima,
        preset: request.preset,
      });
      const spendCapUsd = await this.allowance(caller);
      const events = this.#ferret
        .stream(request.question, {
          principal: caller.principal,
          mode: request.mode,
          preset: request.preset,
          limits,
          history: request.history,
          sessionId: request.sessionId,
          checkpoints: request.checkpoints,
          onCheckpoint: request.checkpoints
            ? this.#gate.handler(caller.principal, options.onCheckpointWaiting)
            : undefined,
          signal: controller.signal,
          ...(spendCapUsd !== undefined ? { spendCapUsd } : {}),
        })
        [Symbol.asyncIterator]();
      const first = await events.next();
      return this.#observe(caller, request, first, events, done);
    } catch (error) {
      done();
      throw error;
    }
  }

  /** Runs to the end and returns the answer. */
  async ask(caller: Caller, request: RunRequest, options: StartOptions = {}): Promise<Answer> {
    let answer: Answer | undefined;
    for await (const event of await this.start(caller, request, options)) {
      if (event.type === "answer-end") answer = event.answer;
    }
    if (!answer) throw new Error("the run ended without an answer");
    return answer;
  }

  async *#observe(
    caller: Caller,
    request: RunRequest,
    first: IteratorResult<TraceEvent>,
    events: AsyncIterator<TraceEvent>,
    done: () => void,
  ): AsyncGenerator<TraceEvent> {
    try {
      for (let next = first; !next.done; next = await events.next()) {
        const event = next.value;
        await this.#count(caller, request, event);
        yield event;
      }
    } finally {
      done();
    }
  }

  async #count(caller: Caller, request: RunRequest, event: TraceEvent): Promise<void> {
    const m = this.#metrics;
    if (event.type === "tool-call-end") m.toolCalls.inc({ tool: event.tool, status: event.status });
    else if (event.type === "llm-call") {
      m.llmCalls.inc({ role: event.role, model: event.model });
      m.tokens.inc({ direction: "input" }, event.inputTokens);
      m.tokens.inc({ direction: "output" }, event.outputTokens);
      m.cost.inc({}, event.costUsd);
    } else if (event.type === "answer-end") {
      const { answer } = event;
      m.runs.inc({ status: answer.status, stop_reason: answer.stopReason });
      if (answer.status === "refused") m.refusals.inc({ stop_reason: answer.stopReason });
      if (answer.usage.costUsd > 0) {
        try {
          await this.#ferret.spend.add({
            tenant: caller.principal.tenant,
            keyId: caller.keyId ?? "",
            usd: answer.usage.costUsd,
          });
        } catch (error) {
          this.#log.error({ err: error, runId: answer.runId }, "recording the run's spend failed");
        }
      }
      this.#log.info(
        {
          runId: answer.runId,
          tenant: caller.principal.tenant,
          user: caller.principal.user,
          keyId: caller.keyId,
          status: answer.status,
          stopReason: answer.stopReason,
          steps: answer.stepCount,
          toolCalls: answer.usage.toolCalls,
          llmCalls: answer.usage.llmCalls,
          costUsd: answer.usage.costUsd,
          ms: answer.latencyMs,
          ...(this.#config.logContent ? { question: request.question, answer: answer.text } : {}),
        },
        "run finished",
      );
    }
  }

  /** Refuses new runs; resolves when none is in flight or after `graceMs`, then aborts those left and waits for them. */
  async drain(graceMs: number): Promise<void> {
    this.#closed = true;
    const idle = () =>
      new Promise<void>((resolve) => {
        if (this.#inFlight.size === 0) return resolve();
        const notify = () => {
          this.#idle.delete(notify);
          resolve();
        };
        this.#idle.add(notify);
      });
    const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref?.());
    await Promise.race([idle(), grace]);
    if (this.#inFlight.size === 0) return;
    this.#gate.releaseAll();
    for (const controller of this.#inFlight) controller.abort(new OverloadedError("The server is shutting down."));
    // Aborted runs end quickly (the loop stops before its next step) and are saved with stop reason `aborted`.
    await Promise.race([idle(), new Promise<void>((resolve) => setTimeout(resolve, 5000).unref?.())]);
  }
}
