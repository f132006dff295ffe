import { describe, expect, it } from "vitest";
import type { TraceEvent } from "../../spec/trace.js";
import { newUiStreamState, uiChunks } from "./ui-message-stream.js";

const base = { runId: "r1", step: 1, t: 5 };

describe("uiChunks for tool calls", () => {
  it("streams a planned search as tool input and output parts, and leaves a probe to the stored trace", () => {
    const state = newUiStreamState();
    const start = (purpose?: "probe"): TraceEvent => ({
      ...base,
      type: "tool-call-start",
      call: {
        callId: purpose ? "p1" : "c1",
        tool: "search",
        args: { query: "refund" },
        ...(purpose ? { purpose } : {}),
      },
    });
    const end = (purpose?: "probe"): TraceEvent => ({
      ...base,
      type: "tool-call-end",
      callId: purpose ? "p1" : "c1",
      tool: "search",
      status: "ok",
      passages: [],
      ms: 2,
      ...(purpose ? { purpose } : {}),
    });
    expect(uiChunks(start(), state).map((c) => c.type)).toEqual(["tool-input-available"]);
    expect(uiChunks(end(), state).map((c) => c.type)).toEqual(["tool-output-available"]);
    expect(uiChunks(start("probe"), state)).toEqual([]);
    expect(uiChunks(end("probe"), state)).toEqual([]);
  });
});
