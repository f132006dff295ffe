import { describe, expect, it } from "vitest";
import type { AgentEngineV1, EngineContext } from "../spec/engine.js";
import type { Passage } from "../spec/passage.js";
import type { TraceEvent } from "../spec/trace.js";
import { askAgent } from "./run-agent.js";
import { createWorld, deterministic } from "./testing/world.js";

/** An engine whose router probes with `probes`, keeps what each probe gave, and replies without retrieval. */
function probingEngine(probes: { query: string; sources?: string[] }[]) {
  const seen: (Passage[] | undefined)[] = [];
  const engine: AgentEngineV1 = {
    specificationVersion: "v1",
    name: "probing",
    async rewrite(question) {
      return { standalone: question };
    },
    async route(_state, ctx: EngineContext) {
      for (const p of probes) seen.push(await ctx.probe?.(p.query, { sources: p.sources, k: 2 }));
      return { route: "none", reason: "probed", reply: "done" };
    },
    async plan() {
      return { thought: "", subQuestions: [], calls: [], done: true };
    },
    async grade() {
      return { subQuestions: [], sufficient: true, threshold: 0 };
    },
    async answer() {
      return { status: "answered", claims: [] };
    },
  };
  return { engine, seen };
}

async function run(probes: { query: string; sources?: string[] }[], maxProbes?: number) {
  const world = await createWorld();
  const { engine, seen } = probingEngine(probes);
  const events: TraceEvent[] = [];
  const answer = await askAgent({
    question: "How long until a refund times out?",
    engine,
    ...world,
    ...deterministic(),
    ...(maxProbes ? { limits: { maxProbes } } : {}),
    onEvent: (e) => events.push(e),
  });
  return { answer, events, seen, world };
}

describe("engine probes", () => {
  it("run through the executor as traced probe calls and count in usage.probes, not in toolCalls", async () => {
    const { answer, events, seen } = await run([{ query: "gateway", sources: ["api_docs"] }]);
    const starts = events.filter((e) => e.type === "tool-call-start");
    expect(starts).toEqual([
      expect.objectContaining({
        call: expect.objectContaining({
          tool: "search",
          purpose: "probe",
          args: expect.objectContaining({ corpus: "api_docs" }),
        }),
      }),
    ]);
    expect(events.filter((e) => e.type === "tool-call-end")).toEqual([expect.objectContaining({ purpose: "probe" })]);
    expect(answer.usage).toMatchObject({ probes: 1, toolCalls: 0 });
    expect(seen[0]?.length).toBeGreaterThan(0);
    expect(answer.evidence).toEqual([]);
  });

  it("answers a repeated probe from the first, without another call", async () => {
    const { answer, seen } = await run([{ query: "refund timeout" }, { query: "refund timeout" }]);
    expect(answer.usage.probes).toBe(1);
    expect(seen[1]).toEqual(seen[0]);
  });

  it("stops at limits.maxProbes: a probe over the budget gives undefined, never an empty result", async () => {
    const { answer, seen } = await run([{ query: "refund" }, { query: "timeout" }, { query: "salary" }], 2);
    expect(answer.usage.probes).toBe(2);
    expect(seen[2]).toBeUndefined();
  });

  it("never reads past the principal's sources, whatever the engine names", async () => {
    const { events, seen } = await run([{ query: "salary", sources: ["finance"] }]);
    expect(seen[0]).toEqual([]);
    expect(events.some((e) => e.type === "tool-call-start")).toBe(false);
  });
});
