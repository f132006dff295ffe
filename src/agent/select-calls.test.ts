import { describe, expect, it } from "vitest";
import { createToolset } from "../tools/toolset.js";
import { callKey, selectCalls } from "./select-calls.js";

const toolset = createToolset({ sources: ["docs"] });

describe("selectCalls", () => {
  it("treats calls equal after defaults and normalisation as repeats", () => {
    expect(callKey({ tool: "search", args: { query: " Refund  Timeout" } }, toolset)).toBe(
      callKey({ tool: "search", args: { k: 5, query: "refund timeout" } }, toolset),
    );
    expect(callKey({ tool: "search", args: { query: "a", corpus: "docs" } }, toolset)).not.toBe(
      callKey({ tool: "search", args: { query: "a" } }, toolset),
    );
  });

  it("drops repeats of earlier and same-plan calls and truncates to the budget", () => {
    let id = 0;
    const selected = selectCalls({
      planned: [
        { tool: "search", args: { query: "old" } },
        { tool: "search", args: { query: "new 1" } },
        { tool: "search", args: { query: "NEW 1" } },
        { tool: "search", args: { query: "new 2" } },
        { tool: "search", args: { query: "new 3" } },
      ],
      previous: [
        { call: { callId: "x", tool: "search", args: { query: "old" } }, step: 1, status: "ok", passageKeys: [] },
      ],
      toolset,
      remaining: 2,
      newId: () => `c${++id}`,
    });
    expect(selected.accepted.map((c) => [c.callId, c.args.query])).toEqual([
      ["c1", "new 1"],
      ["c2", "new 2"],
    ]);
    expect(selected).toMatchObject({ repeated: 2, overBudget: 1 });
  });
});
