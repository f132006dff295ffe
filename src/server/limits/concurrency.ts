import { OverloadedError } from "../errors.js";

/**
 * At most `max` holders at once; up to `queue` more wait in order; beyond that `acquire` fails with
 * `OverloadedError` (503) at once. A waiter whose signal aborts leaves the queue. `close` refuses newcomers
 * and fails every waiter (graceful shutdown).
 */
export class ConcurrencyLimiter {
  readonly max: number;
  readonly queueSize: number;
  #active = 0;
  #closed = false;
  readonly #waiting: { grant: () => void; fail: (error: unknown) => void }[] = [];

  constructor(options: { max: number; queue: number }) {
    this.max = Math.max(1, Math.floor(options.max));
    this.queueSize = Math.max(0, Math.floor(options.queue));
  }

  get active(): number {
    return this.#active;
  }

  get queued(): number {
    return this.#waiting.length;
  }

  /**
   * Resolves with the release function once a slot is free. `abort` may be a function that makes the signal:
   * it is called only when the caller has to wait, so a request served at once never builds one.
   */
  acquire(abort?: AbortSignal | (() => AbortSignal)): Promise<() => void> {
    if (this.#closed) return Promise.reject(new OverloadedError("The server is shutting down.", 5000));
    if (abort instanceof AbortSignal && abort.aborted) return Promise.reject(abort.reason);
    if (this.#active < this.max) {
      this.#active++;
      return Promise.resolve(this.#release());
    }
    const signal = typeof abort === "function" ? abort() : abort;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#waiting.length >= this.queueSize) {
      return Promise.reject(
        new OverloadedError(
          `The server is busy (${this.#active} running, ${this.#waiting.length} waiting); try again.`,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const entry = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(this.#release());
        },
        fail: (error: unknown) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      const onAbort = () => {
        const at = this.#waiting.indexOf(entry);
        if (at >= 0) this.#waiting.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(entry);
    });
  }

  /** Runs `work` holding a slot. */
  async run<T>(work: () => Promise<T>, abort?: AbortSignal | (() => AbortSignal)): Promise<T> {
    const release = await this.acquire(abort);
    try {
      return await work();
    } finally {
      release();
    }
  }

  close(): void {
    this.#closed = true;
    for (const waiter of this.#waiting.splice(0))
      waiter.fail(new OverloadedError("The server is shutting down.", 5000));
  }

  #release(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      // The slot passes straight to the next waiter, so the count never dips and rises.
      if (next) next.grant();
      else this.#active--;
    };
  }
}
