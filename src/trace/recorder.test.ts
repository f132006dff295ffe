import { describe, expect, it } from "vitest";
import { createTraceRecorder } from "./recorder.js";

describe("createTraceRecorder", () => {
  it("stamps run id and time since start, keeps events in order", () => {
    let t = 1000;
    const recorder = createTraceRecorder({ runId: "r1", now: () => (t += 5) });
    const a = recorder.record({ type: "route", step: 0, route: "rag", reason: "x" });
    const b = recorder.record({ type: "answer-delta", step: 1, text: "hi" }, 1100);
    expect(a).toMatchObject({ runId: "r1", t: 5, type: "route" });
    expect(b.t).toBe(95);
    expect(recorder.events).toEqual([a, b]);
  });

  it("stamp does not keep the event", () => {
    const recorder = createTraceRecorder({ runId: "r1", now: () => 0 });
    recorder.stamp({ type: "answer-delta", step: 0, text: "x" });
    expect(recorder.events).toHaveLength(0);
  });
});
