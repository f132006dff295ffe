import { type ChildProcess, fork } from "node:child_process";
import type { Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { SqlLimitError, SqlTimeoutError, StoreError } from "../../spec/errors.js";

/** Caps on a user's query, on top of the per-call row cap and time limit. */
export interface SqlLimits {
  /** Largest result as JSON bytes; rows past it are cut (`truncatedBy: "bytes"`). Default 4 MiB. */
  maxResultBytes: number;
  /** Longest text value in characters; longer ones are cut. Default 10,000. */
  maxCellChars: number;
  /**
   * Most memory one query may add to its runner process (sorts, temporary b-trees, values); past it the runner is
   * killed and the call rejects with `SqlLimitError`. Default 512 MiB.
   */
  memoryBytes: number;
  /** Queries that run at once, one runner process each; more wait their turn. Default 2. */
  runners: number;
  /** An idle runner process exits after this long. Default 60 s. */
  idleMs: number;
  /**
   * Longest a new runner process may take to start (load SQLite, start its watchdog) before its query fails
   * with StoreError. Start-up does not count against a query's time limit. Default 60 s.
   */
  startupMs: number;
}

export const DEFAULT_SQL_LIMITS: SqlLimits = {
  maxResultBytes: 4 * 1024 * 1024,
  maxCellChars: 10_000,
  memoryBytes: 512 * 1024 * 1024,
  runners: 2,
  idleMs: 60_000,
  startupMs: 60_000,
};

/** One query for a runner. */
export interface SqlJob {
  /** Names the copy of the permitted tables (tenant, tables, data version): a runner keeps copies by key. */
  key: string;
  sql: string;
  maxRows: number;
  /** The serialized copy, asked for only when the runner does not hold `key` yet. */
  image(): Uint8Array;
}

/** What the runner process answers. */
export type SqlReply =
  | {
      type: "result";
      columns: string[];
      rows: Record<string, unknown>[];
      truncatedBy?: "rows" | "bytes";
      clippedCells: number;
    }
  | { type: "error"; kind: "sqlite"; code: string; message: string }
  | { type: "error"; kind: "rejected"; reason: string; message: string }
  | { type: "error"; kind: "internal"; message: string };

type ChildMessage = { type: "ready" } | ({ id: number } & ({ type: "need-image" } | SqlReply));

interface Pending {
  id: number;
  job: SqlJob;
  timeoutMs: number;
  /** When the time limit is up; moved later by the time a new runner took to start. */
  deadline: number;
  timer?: NodeJS.Timeout;
  /** When the query was handed to a runner that had not started yet. */
  handedAt?: number;
  resolve(reply: SqlReply): void;
  reject(error: unknown): void;
  runner?: Runner;
  done: boolean;
  cleanup(): void;
}

interface Runner {
  child: ChildProcess;
  /** The process has started and said so; until then its query's clock does not run. */
  ready: boolean;
  startup?: NodeJS.Timeout;
  current?: Pending;
  stderr: string;
  idle?: NodeJS.Timeout;
}

const CHILD = fileURLToPath(new URL("./sql-child.mjs", import.meta.url));
/** Every live runner of this process, killed when the process exits. */
const LIVE = new Set<ChildProcess>();
let exitHook = false;

/**
 * Runs queries in child processes that can be killed: when a query's time is up or its caller aborts, its
 * runner is killed at once (SQLite cannot be interrupted from JavaScript, and a worker thread inside native code
 * cannot be terminated) and the next query starts a fresh one. The event loop of this process never waits on
 * SQLite, so the rest of the store keeps answering while a query runs.
 */
export class SqlRunners {
  readonly #limits: SqlLimits;
  readonly #runners: Runner[] = [];
  readonly #queue: Pending[] = [];
  #nextId = 1;
  #closed = false;

  constructor(limits: Partial<SqlLimits> = {}) {
    this.#limits = { ...DEFAULT_SQL_LIMITS, ...limits };
  }

  /**
   * Runs `job`, rejecting with SqlTimeoutError past `timeoutMs`, counted from now with waiting for a free
   * runner included, but not the start of a new runner process (bounded by `startupMs` instead): on a busy
   * machine a slow process start must not eat the query's time. The caller's `signal` stops it at any point.
   */
  run(job: SqlJob, options: { timeoutMs: number; signal?: AbortSignal }): Promise<SqlReply> {
    if (this.#closed) return Promise.reject(new StoreError("Cannot query tables: the store is closed."));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const timeoutMs = Math.max(1, Math.min(options.timeoutMs, 2 ** 31 - 1));
    return new Promise<SqlReply>((resolve, reject) => {
      const onAbort = () => this.#stop(pending, signal?.reason);
      const pending: Pending = {
        id: this.#nextId++,
        job,
        timeoutMs,
        deadline: Date.now() + timeoutMs,
        resolve,
        reject,
        done: false,
        cleanup: () => {
          clearTimeout(pending.timer);
          signal?.removeEventListener("abort", onAbort);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#arm(pending);
      this.#queue.push(pending);
      this.#pump();
    });
  }

  get limits(): SqlLimits {
    return this.#limits;
  }

  /** Process ids of the live runners (for tests and diagnostics). */
  pids(): number[] {
    return this.#runners.flatMap((runner) => (runner.child.pid === undefined ? [] : [runner.child.pid]));
  }

  /** Kills every runner; waiting and running queries reject with StoreError. */
  close(): void {
    this.#closed = true;
    const closed = () => new StoreError("Cannot query tables: the store was closed while the query waited or ran.");
    for (const pending of this.#queue.splice(0)) this.#settle(pending, closed());
    for (const runner of [...this.#runners]) {
      if (runner.current) this.#settle(runner.current, closed());
      this.#kill(runner);
    }
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      let runner = this.#runners.find((r) => r.current === undefined);
      if (runner === undefined && this.#runners.length < this.#limits.runners) runner = this.#spawn();
      if (runner === undefined) return;
      const pending = this.#queue.shift() as Pending;
      if (runner.idle) clearTimeout(runner.idle);
      runner.current = pending;
      pending.runner = runner;
      runner.child.channel?.ref();
      if (runner.ready) this.#send(runner, pending, false);
      else pending.handedAt = Date.now();
    }
  }

  /** (Re)sets the query's timer to its deadline; while its runner is still starting, the timer waits. */
  #arm(pending: Pending): void {
    clearTimeout(pending.timer);
    pending.timer = setTimeout(
      () => {
        if (pending.runner !== undefined && !pending.runner.ready) return;
        this.#stop(
          pending,
          new SqlTimeoutError(`The query ran past ${duration(pending.timeoutMs)} and was stopped.`, {
            timeoutMs: pending.timeoutMs,
            context: { sql: pending.job.sql },
          }),
        );
      },
      Math.max(0, pending.deadline - Date.now()),
    );
  }

  /** A new runner has started: its query's deadline moves by the start-up time, and the query is sent. */
  #started(runner: Runner): void {
    runner.ready = true;
    clearTimeout(runner.startup);
    const pending = runner.current;
    if (pending === undefined) return;
    pending.deadline += Date.now() - (pending.handedAt ?? Date.now());
    this.#arm(pending);
    this.#send(runner, pending, false);
  }

  #send(runner: Runner, pending: Pending, withImage: boolean): void {
    const { limits } = this;
    let image: Uint8Array | undefined;
    try {
      if (withImage) image = pending.job.image();
      runner.child.send({
        type: "query",
        id: pending.id,
        key: pending.job.key,
        sql: pending.job.sql,
        maxRows: pending.job.maxRows,
        limits: {
          maxResultBytes: limits.maxResultBytes,
          maxCellChars: limits.maxCellChars,
          memoryBytes: limits.memoryBytes,
        },
        budgetMs: pending.deadline - Date.now(),
        ...(image === undefined ? {} : { image }),
      });
    } catch (error) {
      this.#settle(pending, error);
      this.#release(runner);
    }
  }

  #spawn(): Runner {
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const child = fork(CHILD, [], {
      serialization: "advanced",
      execArgv: [],
      env,
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    const runner: Runner = { child, stderr: "", ready: false };
    runner.startup = setTimeout(() => {
      const waiting = runner.current;
      this.#kill(runner);
      if (waiting !== undefined) {
        this.#settle(
          waiting,
          new StoreError(`The SQL runner process did not start within ${duration(this.#limits.startupMs)}.`),
        );
      }
      this.#pump();
    }, this.#limits.startupMs);
    runner.startup.unref();
    this.#runners.push(runner);
    LIVE.add(child);
    if (!exitHook) {
      exitHook = true;
      process.once("exit", () => {
        for (const live of LIVE) live.kill("SIGKILL");
      });
    }
    child.unref();
    child.channel?.unref();
    (child.stderr as Socket | null)?.unref();
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      runner.stderr = (runner.stderr + chunk).slice(-4096);
    });
    child.on("message", (message: ChildMessage) => this.#onMessage(runner, message));
    child.on("error", (error) => this.#onExit(runner, error));
    // `close`, not `exit`: by then stderr is read to its end, with the watchdog's reason if it wrote one.
    child.on("close", (code, signal) => this.#onExit(runner, undefined, code, signal));
    return runner;
  }

  #onMessage(runner: Runner, message: ChildMessage): void {
    if (message.type === "ready") {
      this.#started(runner);
      return;
    }
    const pending = runner.current;
    if (pending === undefined || message.id !== pending.id) return;
    if (message.type === "need-image") {
      this.#send(runner, pending, true);
      return;
    }
    const { id: _id, ...reply } = message;
    this.#settle(pending, undefined, reply as SqlReply);
    this.#release(runner);
  }

  #onExit(runner: Runner, error?: Error, code?: number | null, signal?: NodeJS.Signals | null): void {
    const index = this.#runners.indexOf(runner);
    if (index === -1) return;
    this.#runners.splice(index, 1);
    LIVE.delete(runner.child);
    if (runner.idle) clearTimeout(runner.idle);
    clearTimeout(runner.startup);
    const pending = runner.current;
    if (pending !== undefined) this.#settle(pending, this.#whyStopped(runner, pending, error, code, signal));
    this.#pump();
  }

  /** Why a runner died during a query: the watchdog says so on stderr when it killed it. */
  #whyStopped(
    runner: Runner,
    pending: Pending,
    error: Error | undefined,
    code: number | null | undefined,
    signal: NodeJS.Signals | null | undefined,
  ): Error {
    const context = { sql: pending.job.sql };
    const reason = watchdogReason(runner.stderr);
    if (reason === "memory") {
      const mib = Math.round(this.#limits.memoryBytes / (1024 * 1024));
      return new SqlLimitError(`The query needed more than ${mib} MiB of working memory and was stopped.`, {
        limit: "memory",
        capBytes: this.#limits.memoryBytes,
        context,
      });
    }
    if (reason === "deadline") {
      return new SqlTimeoutError("The query ran past its time limit and was stopped.", {
        timeoutMs: pending.timeoutMs,
        context,
      });
    }
    const how = error?.message ?? (signal ? `signal ${signal}` : `exit code ${code}`);
    return new StoreError(`The SQL runner stopped during the query (${how}).`, error, context);
  }

  /** Stops one query: dropped from the queue, or its runner killed. */
  #stop(pending: Pending, reason: unknown): void {
    if (pending.done) return;
    const queued = this.#queue.indexOf(pending);
    if (queued !== -1) this.#queue.splice(queued, 1);
    this.#settle(pending, reason);
    if (pending.runner !== undefined && pending.runner.current === pending) {
      pending.runner.current = undefined;
      this.#kill(pending.runner);
    }
    this.#pump();
  }

  #settle(pending: Pending, error: unknown, reply?: SqlReply): void {
    if (pending.done) return;
    pending.done = true;
    pending.cleanup();
    if (reply !== undefined) pending.resolve(reply);
    else pending.reject(error);
  }

  #release(runner: Runner): void {
    runner.current = undefined;
    if (!this.#runners.includes(runner)) return;
    runner.child.channel?.unref();
    runner.idle = setTimeout(() => this.#kill(runner), this.#limits.idleMs);
    runner.idle.unref();
    this.#pump();
  }

  #kill(runner: Runner): void {
    const index = this.#runners.indexOf(runner);
    if (index !== -1) this.#runners.splice(index, 1);
    if (runner.idle) clearTimeout(runner.idle);
    clearTimeout(runner.startup);
    LIVE.delete(runner.child);
    runner.child.kill("SIGKILL");
  }
}

/** `1.5 s`, `250 ms`. */
export function duration(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/** The reason in the watchdog's last line on stderr, if it wrote one. */
function watchdogReason(stderr: string): string | undefined {
  for (const line of stderr.trim().split("\n").reverse()) {
    try {
      const parsed = JSON.parse(line) as { ferretSqlWatchdog?: { reason?: unknown } };
      const reason = parsed.ferretSqlWatchdog?.reason;
      if (typeof reason === "string") return reason;
    } catch {
      // Not the watchdog's line.
    }
  }
  return undefined;
}
