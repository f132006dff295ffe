import { describe, expect, it } from "vitest";
import type { AgentState, DraftAnswer, GradeResult } from "../spec/engine.js";
import { askAgent } from "./run-agent.js";
import { createScriptedEngine, type EngineScript } from "./testing/scripted-engine.js";
import { createWorld, deterministic } from "./testing/world.js";

function drafted(state: AgentState): DraftAnswer {
  const n = state.evidence.findIndex((p) => p.text.includes("Dana Smith")) + 1;
  return { status: "answered", claims: [{ text: "Dana Smith is on call.", citations: [{ n, quote: "Dana Smith" }] }] };
}

function graded(state: AgentState, sufficient: boolean, answer?: DraftAnswer): GradeResult {
  const sub = { index: 1, text: state.question, coverage: sufficient ? 1 : 0, confidence: 1, missing: [], sufficient };
  return { subQuestions: [sub], sufficient, threshold: 0.5, ...(answer ? { answer } : {}) };
}

async function run(script: EngineScript) {
  const world = await createWorld();
  const engine = createScriptedEngine(script);
  const answer = await askAgent({
    question: "Who is the on-call engineer for payments?",
    engine,
    ...world,
    ...deterministic(),
    mode: "agentic",
  });
  return { answer, methods: engine.calls.map((c) => c.method) };
}

describe("a grader that answers (GradeResult.answer)", () => {
  it("answers from a sufficient grade's draft without calling the answerer", async () => {
    const { answer, methods } = await run({ grade: (state) => graded(state, true, drafted(state)) });
    expect(methods).toEqual(["plan", "grade"]);
    expect(answer).toMatchObject({ status: "answered", stopReason: "evidence_sufficient" });
    expect(answer.text).toBe("Dana Smith is on call. [1]");
    expect(answer.citations[0]).toMatchObject({ passageId: "oncall.md::0", quote: "Dana Smith" });
  });

  it("ignores a draft from a grade that is not sufficient", async () => {
    const { methods } = await run({
      grade: (state, n) => (n === 0 ? graded(state, false, drafted(state)) : graded(state, true)),
      plan: (state, n) => ({
        thought: "search",
        subQuestions: [state.question],
        calls: [{ tool: "search", args: { query: n === 0 ? "on-call engineer" : "payments on-call" } }],
        done: false,
      }),
    });
    expect(methods).toEqual(["plan", "grade", "plan", "grade", "answer"]);
  });

  it("ends the loop on a grade that is done, answering with its refusal without the answerer", async () => {
    const refused: DraftAnswer = { status: "refused", claims: [], reason: "No passage names the engineer." };
    const { answer, methods } = await run({ grade: (state) => ({ ...graded(state, false, refused), done: true }) });
    expect(methods).toEqual(["plan", "grade"]);
    expect(answer).toMatchObject({ status: "refused", stopReason: "insufficient_evidence" });
  });

  it("ends the loop on a grade that is done without a draft: the answerer answers, no further plan", async () => {
    const { methods } = await run({ grade: (state) => ({ ...graded(state, false), done: true }) });
    expect(methods).toEqual(["plan", "grade", "answer"]);
  });

  it("asks the answerer when the sufficient grade carries no draft", async () => {
    const { methods } = await run({ grade: (state) => graded(state, true) });
    expect(methods).toEqual(["plan", "grade", "answer"]);
  });
});
