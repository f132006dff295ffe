/**
 * loop-overhead: what ferret's agent loop itself costs per step. The engine is scripted with zero latency
 * (two search calls per step for STEPS steps, then sufficient, then a one-claim answer) and the retriever
 * returns fixed in-memory passages, so only the loop's own code is timed: argument validation, call
 * selection, tool execution wrappers, trace events, budgets, stop conditions, the citation check.
 * Baseline: a minimal hand-written loop making the same engine and retriever calls.
 */
import { askAgent } from "../src/agent/index.js";
import type { Retriever } from "../src/retrieval/retriever.js";
import type { EvidenceItem } from "../src/spec/answer.js";
import type { AgentEngineV1, AgentState, DraftAnswer, GradeResult, PlanResult } from "../src/spec/engine.js";
import type { Passage } from "../src/spec/passage.js";
import { LOCAL_OWNER } from "../src/spec/principal.js";
import type { SourceInfo } from "../src/spec/source.js";
import { createSqliteStore } from "../src/stores/sqlite/index.js";
import { now, percentile } from "./measure.js";
import type { BenchContext, Benchmark, BenchResult } from "./report.js";

const STEPS = 5;
const CALLS_PER_STEP = 2;
const ROUNDS = 5;
const QUESTION = "What is the codename of Varnok Tesh and who supplies its reactor?";

const PASSAGES: Passage[] = [0, 1, 2, 3, 4].map((i) => ({
  id: `doc-${i}.md::0`,
  docId: `doc-${i}.md`,
  source: "docs",
  title: `Report ${i}`,
  section: "Summary",
  text: `The codename of Varnok Tesh is Quilmaro. Report ${i} lists the primary supplier as Drennic Works.`,
  score: 0.9 - i * 0.05,
  start: 0,
  end: 90,
}));

const SOURCES: SourceInfo[] = [
  { name: "docs", tenant: "default", kind: "documents", description: "reports", acl: [], documents: 5, chunks: 5 },
];

/** Fixed passages, no I/O. */
export const fixedRetriever: Retriever = {
  async search() {
    return PASSAGES;
  },
};

function plan(state: Pick<AgentState, "step" | "question">): PlanResult {
  return {
    thought: "scripted",
    subQuestions: [state.question],
    calls: Array.from({ length: CALLS_PER_STEP }, (_, i) => ({
      tool: "search",
      args: { query: `codename supplier step ${state.step} call ${i}`, k: 5 },
    })),
    done: false,
  };
}

function grade(state: Pick<AgentState, "step" | "question">): GradeResult {
  const sufficient = state.step >= STEPS;
  return {
    subQuestions: [
      { index: 0, text: state.question, coverage: sufficient ? 1 : 0.5, confidence: 0.9, missing: [], sufficient },
    ],
    sufficient,
    threshold: 0.6,
  };
}

function answer(state: Pick<AgentState, "evidence">): DraftAnswer {
  const first = state.evidence[0];
  return {
    status: "answered",
    claims: [
      { text: "The codename of Varnok Tesh is Quilmaro.", citations: first ? [{ n: 1, quote: "Quilmaro" }] : [] },
    ],
  };
}

/** Zero-latency engine: plans two searches per step, is satisfied at step STEPS, answers with one claim. */
export const zeroLatencyEngine: AgentEngineV1 = {
  specificationVersion: "v1",
  name: "bench:scripted",
  async rewrite(question) {
    return { standalone: question };
  },
  async route() {
    return { route: "agentic", reason: "scripted" };
  },
  async plan(state) {
    return plan(state);
  },
  async grade(state) {
    return grade(state);
  },
  async answer(state) {
    return answer(state);
  },
};

/** The same calls without ferret's loop: plan, parallel searches, de-duplicated evidence, grade; then answer. */
async function handLoop(): Promise<number> {
  const state = {
    question: QUESTION,
    step: 0,
    evidence: [] as EvidenceItem[],
  };
  const seen = new Set<string>();
  for (let step = 1; step <= STEPS + 1; step++) {
    state.step = step;
    const planned = await zeroLatencyEngine.plan(state as unknown as AgentState, { signal: AbortSignal.abort() });
    const results = await Promise.all(
      planned.calls.map((call) =>
        fixedRetriever.search(String(call.args.query), { principal: LOCAL_OWNER, k: Number(call.args.k) }),
      ),
    );
    results.forEach((passages, i) => {
      for (const p of passages) {
        if (seen.has(p.id)) continue;
        seen.add(p.id);
        state.evidence.push({ ...p, step, callId: `c${step}-${i}` });
      }
    });
    const graded = await zeroLatencyEngine.grade(state as unknown as AgentState, { signal: AbortSignal.abort() });
    if (graded.sufficient) break;
  }
  const drafted = await zeroLatencyEngine.answer(state as unknown as AgentState, { signal: AbortSignal.abort() });
  return drafted.claims.length;
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const runs = ctx.quick ? 100 : 300;
  const warmup = 200;
  const store = await createSqliteStore({ path: ":memory:" });
  const options = (persist: boolean) => ({
    question: QUESTION,
    principal: LOCAL_OWNER,
    engine: zeroLatencyEngine,
    retriever: fixedRetriever,
    store,
    sources: SOURCES,
    mode: "agentic" as const,
    limits: { maxSteps: STEPS + 1, maxToolCalls: (STEPS + 1) * CALLS_PER_STEP },
    persist,
  });
  const check = await askAgent(options(false));
  if (check.stepCount !== STEPS || check.status !== "answered" || check.usage.toolCalls !== STEPS * CALLS_PER_STEP) {
    throw new Error(
      `scripted run went off script: ${check.stepCount} steps, ${check.usage.toolCalls} calls, ${check.status}/${check.stopReason}`,
    );
  }
  // Alternating rounds, median per variant: the first rounds pay for JIT warm-up, and the machine is noisy.
  const variants: [string, () => Promise<unknown>][] = [
    ["ferret askAgent (persist off)", () => askAgent(options(false))],
    ["hand-written loop", handLoop],
    ["ferret askAgent (run saved to a :memory: store)", () => askAgent(options(true))],
  ];
  const perStep: number[][] = variants.map(() => []);
  ctx.progress(`loop-overhead: ${ROUNDS} alternating rounds of ${runs} runs x ${STEPS} steps per variant`);
  for (const [, fn] of variants) for (let i = 0; i < warmup; i++) await fn();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [v, [, fn]] of variants.entries()) {
      const start = now();
      for (let i = 0; i < runs; i++) await fn();
      perStep[v]?.push(((now() - start) * 1000) / (runs * STEPS)); // microseconds per step
    }
  }
  const [ferret, baseline, persisted] = perStep.map((samples) => percentile(samples, 50)) as [number, number, number];
  await store.close();
  return {
    name: "loop-overhead",
    rows: [
      {
        metric: "time per step (loop only)",
        unit: "µs",
        ferret,
        baseline,
        baselineName: "hand-written loop",
        better: "lower",
        target: { op: "<", value: 1000 },
      },
      {
        metric: "time per step, run saved",
        unit: "µs",
        ferret: persisted,
        baseline,
        baselineName: "hand-written loop",
        better: "lower",
      },
      { metric: "loop overhead per step", unit: "µs", ferret: ferret - baseline, better: "lower" },
    ],
    notes: [
      `zero-latency scripted engine: ${CALLS_PER_STEP} search calls per step for ${STEPS} steps, then a one-claim cited answer; fixed in-memory retriever (${PASSAGES.length} passages)`,
      `mode agentic (no routing call); per-step figures are a whole run (including answer phase and citation check) divided by ${STEPS}; median of ${ROUNDS} alternating rounds of ${runs} runs, after ${warmup} warm-up runs each`,
      "'run saved' also writes the run record (trace events + answer) to an in-memory SQLite store, as ask() does by default",
    ],
    extra: { steps: STEPS, callsPerStep: CALLS_PER_STEP, runs, rounds: perStep },
  };
}

export const loopOverheadBenchmark: Benchmark = {
  name: "loop-overhead",
  description: "the agent loop's own cost per step with a zero-latency engine and retriever",
  run,
};
