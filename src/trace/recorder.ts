import type { TraceEvent } from "../spec/trace.js";

/** An event as the loop writes it: the recorder adds `runId` and `t`. */
export type TraceEventInput = TraceEvent extends infer E
  ? E extends TraceEvent
    ? Omit<E, "runId" | "t">
    : never
  : never;

export interface TraceRecorder {
  readonly runId: string;
  /** `now()` when the recorder was made: `t` of every event counts from here. */
  readonly startedAt: number;
  /** Every event recorded, in order. */
  readonly events: readonly TraceEvent[];
  /** Stamps the event with the run id and its time (default `now()`), keeps it and returns it. */
  record(event: TraceEventInput, at?: number): TraceEvent;
  /** Stamps the event without keeping it (to save a record that ends with it before it is kept). */
  stamp(event: TraceEventInput, at?: number): TraceEvent;
}

export function createTraceRecorder(options: { runId: string; now?: () => number }): TraceRecorder {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const events: TraceEvent[] = [];
  return {
    runId: options.runId,
    startedAt,
    events,
    stamp: (event, at) => ({ ...event, runId: options.runId, t: Math.max(0, (at ?? now()) - startedAt) }) as TraceEvent,
    record(event, at) {
      const stamped = this.stamp(event, at);
      events.push(stamped);
      return stamped;
    },
  };
}
