import { describe, expect, it } from "vitest";
import type { TraceEvent } from "../../spec/trace.js";
import { answer, evidence, searchEvents } from "../__fixtures__/builders.js";
import { searchedSources, toolSelection } from "./tool-selection.js";

const NAMES = ["api_docs", "incidents", "tickets"];

describe("searchedSources", () => {
  it("reads corpus arguments, SQL table names and passage sources", () => {
    const sql: TraceEvent = {
      type: "tool-call-start",
      runId: "r",
      step: 2,
      t: 0,
      call: { callId: "c9", tool: "run_sql", args: { sql: "SELECT count(*) FROM tickets WHERE severity='sev1'" } },
    };
    const events = [...searchEvents(1, "api_docs", []), sql];
    const a = answer({ evidence: [evidence("incidents/INC-1.md", { source: "incidents" })] });
    expect(searchedSources(a, events, NAMES)).toEqual(["api_docs", "incidents", "tickets"]);
  });

  it("ignores names that are not sources", () => {
    expect(searchedSources(undefined, searchEvents(1, "nonsense", []), NAMES)).toEqual([]);
  });
});

describe("toolSelection", () => {
  it("reports precision and recall against gold_tools", () => {
    expect(toolSelection(["api_docs", "tickets"], ["api_docs", "incidents"])).toEqual({ precision: 0.5, recall: 0.5 });
    expect(toolSelection([], ["api_docs"])).toEqual({ precision: null, recall: 0 });
    expect(toolSelection(["api_docs"], [])).toEqual({ precision: 0, recall: null });
  });
});
