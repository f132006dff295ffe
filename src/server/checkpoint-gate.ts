import type { CheckpointRequest, Principal } from "../index.js";
import type { CheckpointDecision } from "../spec/trace.js";

interface Pending {
  tenant: string;
  user: string;
  request: CheckpointRequest;
  resolve: (decision: CheckpointDecision) => void;
}

/**
 * Paused runs waiting for a person: a run's checkpoint handler waits here until `decide` is called by the
 * principal who started it, or until the timeout passes (then the run continues on its own).
 */
export class CheckpointGate {
  readonly #pending = new Map<string, Pending>();
  readonly #timeoutMs: number;

  constructor(options: { timeoutMs: number }) {
    this.#timeoutMs = options.timeoutMs;
  }

  /** The checkpoint handler for a run of `principal`; `onWaiting` hears of each pause before it waits. */
  handler(
    principal: Principal,
    onWaiting?: (request: CheckpointRequest, timeoutMs: number) => void,
  ): (request: CheckpointRequest) => Promise<CheckpointDecision> {
    return (request) =>
      new Promise<CheckpointDecision>((resolve) => {
        const timer = setTimeout(() => finish({ action: "continue" }), this.#timeoutMs);
        timer.unref?.();
        const finish = (decision: CheckpointDecision) => {
          clearTimeout(timer);
          if (this.#pending.get(request.runId)?.request === request) this.#pending.delete(request.runId);
          resolve(decision);
        };
        this.#pending.set(request.runId, { tenant: principal.tenant, user: principal.user, request, resolve: finish });
        onWaiting?.(request, this.#timeoutMs);
      });
  }

  /** Gives a paused run of this principal its decision; false when no run of theirs waits under this id. */
  decide(runId: string, principal: Principal, decision: CheckpointDecision): boolean {
    const pending = this.#pending.get(runId);
    if (!pending || pending.tenant !== principal.tenant || pending.user !== principal.user) return false;
    pending.resolve(decision);
    return true;
  }

  /** Lets every paused run go on (shutdown). */
  releaseAll(): void {
    for (const pending of [...this.#pending.values()]) pending.resolve({ action: "stop" });
  }

  get size(): number {
    return this.#pending.size;
  }
}
