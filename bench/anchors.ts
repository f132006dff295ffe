/**
 * anchors: ferret against two anchors on the same questions, store and simulated model (item 8 of issue 10).
 *  - ferret: `ask()` in mode auto with its LLM engine (search first, then a router that answers easy questions in
 *    the same call or proposes the searches for what is missing; then searches -> grade, where the grader answers
 *    when the passages suffice, proposes the next searches, or answers partially / refuses when nothing is left);
 *  - a real LangGraph.js graph in the shape of LangGraph's agentic RAG tutorial (retrieve -> grade documents ->
 *    rewrite -> generate; anchors-langgraph.ts);
 *  - a plain AI SDK tool loop (`generateText` with a search tool and `stopWhen: stepCountIs(n)`).
 * All three call one simulator (anchors-model.ts: same latency per call, per output and per input token, same
 * scripted decisions from each question's gold data, anchors-oracle.ts) through their native model interface,
 * and retrieve through the same ferret instance's search (k = 6), so only orchestration differs.
 *
 *   npm run bench -- anchors            # acme, plus a northwind subset when ../shared/eval exists
 *   npm run bench -- --quick anchors    # fewer northwind questions
 */
import { join } from "node:path";
import { type BenchSet, benchSets } from "./anchors-questions.js";
import { LOOP_STEPS, type Outcome, openWorld, SYSTEM_LABELS, SYSTEMS, type SystemName } from "./anchors-systems.js";
import { mean } from "./measure.js";
import type { BenchContext, Benchmark, BenchResult, ResultRow } from "./report.js";
import type { Latency } from "./simulated-llm.js";

/**
 * A hosted model's proportions (about 400 ms to the first token, 100 output tokens/s, prompt read at about
 * 20,000 tokens/s) at 1/5 of the time, so the run stays short; the ratios do not depend on the scale.
 */
export const ANCHORS_LATENCY: Latency = { perCallMs: 80, perOutputTokenMs: 2, perInputTokenMs: 0.01 };

/** The bench's target: ferret's wall time at most this share of the LangGraph graph's, at equal or better correctness. */
const TARGET_RATIO = 0.6;

/**
 * Other proportions, applied to the same run's calls and tokens (model time only, no framework time): a local
 * model (short first token, slow output) and a hosted model with a slow first token.
 */
const OTHER_LATENCIES: Latency[] = [
  { perCallMs: 40, perOutputTokenMs: 2, perInputTokenMs: 0.02 },
  { perCallMs: 200, perOutputTokenMs: 2, perInputTokenMs: 0.01 },
];

/** Mean model time per question under a latency, from the calls and tokens each question used. */
function modelledMs(outcomes: readonly Outcome[], latency: Latency): number {
  return mean(
    outcomes.map(
      (o) =>
        o.calls * latency.perCallMs +
        o.outputTokens * latency.perOutputTokenMs +
        o.inputTokens * latency.perInputTokenMs,
    ),
  );
}

interface Summary {
  n: number;
  ms: number;
  calls: number;
  tokens: number;
  outputTokens: number;
  correct: number;
}

function summarise(outcomes: readonly Outcome[]): Summary {
  return {
    n: outcomes.length,
    ms: mean(outcomes.map((o) => o.ms)),
    calls: mean(outcomes.map((o) => o.calls)),
    tokens: mean(outcomes.map((o) => o.inputTokens + o.outputTokens)),
    outputTokens: mean(outcomes.map((o) => o.outputTokens)),
    correct: outcomes.filter((o) => o.correct).length / Math.max(1, outcomes.length),
  };
}

async function runSet(ctx: BenchContext, bench: BenchSet): Promise<Outcome[]> {
  const { set, questions } = bench;
  ctx.progress(`anchors: ingesting ${set.name} (${questions.length} questions)`);
  const world = await openWorld({ set, db: join(ctx.scratch, `${set.name}.db`), latency: ANCHORS_LATENCY });
  const outcomes: Outcome[] = [];
  try {
    // Warm-up (module loading, JIT, the graph's first run): one question per system, not counted.
    const first = questions[0];
    if (first) for (const system of SYSTEMS) await world.ask(system, first);
    for (const [i, q] of questions.entries()) {
      ctx.progress(`anchors (${set.name}): ${i + 1}/${questions.length} ${q.id} ${q.type}`);
      // The order rotates per question, so no system always runs first.
      for (let s = 0; s < SYSTEMS.length; s++) {
        const system = SYSTEMS[(i + s) % SYSTEMS.length] as SystemName;
        outcomes.push(await world.ask(system, q));
      }
    }
  } finally {
    await world.close();
  }
  return outcomes;
}

function comparisonRows(ferret: Summary, other: Summary, baselineName: string, vs: string): ResultRow[] {
  const row = (metric: string, unit: string, key: keyof Summary, better: ResultRow["better"]): ResultRow => ({
    metric: `${metric} ${vs}`,
    unit,
    ferret: ferret[key],
    baseline: other[key],
    baselineName,
    better,
  });
  return [
    row("wall time per question", "ms", "ms", "lower"),
    row("model calls per question", "calls", "calls", "lower"),
    row("tokens per question, in + out", "tokens", "tokens", "lower"),
    row("output tokens per question", "tokens", "outputTokens", "lower"),
    { ...row("correct answers", "fraction", "correct", "higher"), target: { op: ">=", value: other.correct } },
  ];
}

/** One line per set and question type: calls, wall time and correct answers of each system. */
function breakdown(outcomes: readonly Outcome[], setOf: (id: string) => string): string[] {
  const groups = new Map<string, Outcome[]>();
  for (const o of outcomes) {
    const key = `${setOf(o.id)} ${o.type}`;
    groups.set(key, [...(groups.get(key) ?? []), o]);
  }
  return [...groups].map(([key, list]) => {
    const parts = SYSTEMS.map((system) => {
      const s = summarise(list.filter((o) => o.system === system));
      return `${system} ${s.calls.toFixed(1)} calls ${Math.round(s.ms)} ms ${Math.round(s.correct * s.n)}/${s.n}`;
    });
    return `${key} (${list.length / SYSTEMS.length}): ${parts.join(" | ")}`;
  });
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const sets = benchSets({ perType: ctx.quick ? 2 : 4 });
  const outcomes: Outcome[] = [];
  const setOf = new Map<string, string>();
  for (const bench of sets) {
    for (const q of bench.questions) setOf.set(q.id, bench.set.name);
    outcomes.push(...(await runSet(ctx, bench)));
  }
  const by = (system: SystemName) => summarise(outcomes.filter((o) => o.system === system));
  const ferret = by("ferret");
  const graph = by("langgraph");
  const loop = by("ai-sdk");
  const easy = outcomes.filter((o) => o.system === "ferret" && o.type === "single_hop");
  const ratio = ferret.ms / graph.ms;
  const miscounted = outcomes.filter((o) => o.reportedCalls !== undefined && o.reportedCalls !== o.calls).length;
  const rows: ResultRow[] = [
    ...comparisonRows(ferret, graph, SYSTEM_LABELS.langgraph, "vs LangGraph"),
    {
      metric: "wall time, ferret / LangGraph",
      unit: "x",
      ferret: ratio,
      better: "lower",
      target: { op: "<=", value: TARGET_RATIO },
    },
    ...[ANCHORS_LATENCY, ...OTHER_LATENCIES].map(
      (latency): ResultRow => ({
        metric: `model time only, ferret / LangGraph, ${latency.perCallMs} ms per call${latency === ANCHORS_LATENCY ? " (this run)" : ""}`,
        unit: "x",
        ferret:
          modelledMs(
            outcomes.filter((o) => o.system === "ferret"),
            latency,
          ) /
          modelledMs(
            outcomes.filter((o) => o.system === "langgraph"),
            latency,
          ),
        better: "lower",
      }),
    ),
    {
      metric: "single-hop questions answered in one model call",
      unit: "fraction",
      ferret: easy.filter((o) => o.calls === 1).length / Math.max(1, easy.length),
      better: "higher",
    },
    ...comparisonRows(ferret, loop, SYSTEM_LABELS["ai-sdk"], "vs AI SDK loop"),
  ];
  const counts = sets.map((s) => `${s.set.name} ${s.questions.length}`).join(", ");
  const l = ANCHORS_LATENCY;
  return {
    name: "anchors",
    rows,
    notes: [
      `command: npm run bench -- ${ctx.quick ? "--quick " : ""}anchors (northwind from ../shared/eval or FERRET_SHARED_EVAL when present)`,
      `questions: ${counts} (types ${[...new Set(outcomes.map((o) => o.type))].join(", ")}); means per question; systems run in rotating order after one warm-up question each`,
      `simulated model: ${l.perCallMs} ms per call + ${l.perOutputTokenMs} ms per output token + ${l.perInputTokenMs} ms per input token (tokens: ferret's countTokens of what each model is shown and returns); one oracle decides for all three from each question's gold data`,
      "script, one policy for all (anchors-oracle.ts): sufficient = every answer-keyword group in some passage; next searches = the question, then the unseen sub-questions (multi-hop: one hop at a time), never repeated; answer = each group's supporting sentence, partial or refused when groups are missing",
      "script per system: ferret's router and grader read it as sufficient -> answer, else next searches, else (none left) the partial/refused answer; its planner and answerer likewise. LangGraph: generate_query_or_respond = next search or answer, grade_documents = sufficient yes/no, rewrite = the first sub-question, generate = the answer. AI SDK step = answer when sufficient, else next searches, else the partial/refused answer",
      `'model time only' rows price the same calls and tokens at other latencies (${OTHER_LATENCIES.map((o) => `${o.perCallMs} ms/call, ${o.perOutputTokenMs} ms/output token, ${o.perInputTokenMs} ms/input token`).join("; ")}), without framework time`,
      `retrieval: ferret's keyword search (k=6) of one store for all three; ferret with its sub-query cache off; AI SDK loop stopWhen stepCountIs(${LOOP_STEPS}); the graph grades and generates from every passage retrieved so far`,
      `ferret's own usage.llmCalls matched the simulator's count on ${outcomes.filter((o) => o.system === "ferret").length - miscounted} of ${outcomes.filter((o) => o.system === "ferret").length} questions`,
      ...breakdown(outcomes, (id) => setOf.get(id) ?? "?"),
    ],
    extra: { latency: ANCHORS_LATENCY, outcomes },
  };
}

export const anchorsBenchmark: Benchmark = {
  name: "anchors",
  description: "ferret vs a LangGraph.js agentic-RAG graph and an AI SDK tool loop on one simulated model",
  run,
};
