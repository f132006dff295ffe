/**
 * ask-offline: end-to-end `createFerret({ db }).ask(question)` with the offline engine on the synthetic
 * corpus at 10k and 100k chunks, over ~50 questions built from the planted facts ("What is the codename of
 * Varnok Tesh?"). Baseline: one `search()` of the same question on the same instance (the retrieval floor).
 * Also reports how many answers contain the planted value and cite the chunk that holds it.
 */
import { join } from "node:path";
import { createFerret } from "../src/ferret.js";
import type { Answer } from "../src/spec/answer.js";
import { createCorpus } from "./corpus.js";
import { buildStore, scaleLabel } from "./fixtures.js";
import { latency, timeEach } from "./measure.js";
import type { BenchContext, Benchmark, BenchResult, ResultRow } from "./report.js";

const QUESTIONS = 50;
const WARMUP = 5;
const BUDGET_MS = 60_000;

async function atScale(ctx: BenchContext, chunks: number) {
  const label = scaleLabel(chunks);
  const corpus = createCorpus({ chunks });
  const path = join(ctx.scratch, `ask-${label}.db`);
  const built = await buildStore({ corpus, path, progress: ctx.progress });
  await built.close();
  const ferret = await createFerret({ db: path, env: {}, onWarning: (m) => ctx.progress(`  warning: ${m}`) });
  const facts = corpus.facts.slice(0, QUESTIONS + WARMUP);
  ctx.progress(`ask-offline @${label}: ${QUESTIONS} questions`);
  for (const f of facts.slice(0, WARMUP)) await ferret.ask(f.question);
  const answers: Answer[] = [];
  const asked = await timeEach(facts.slice(WARMUP), async (f) => answers.push(await ferret.ask(f.question)), {
    budgetMs: BUDGET_MS,
  });
  const searched = await timeEach(facts.slice(WARMUP), (f) => ferret.search(f.question), { budgetMs: BUDGET_MS });
  await ferret.close();
  let correct = 0;
  let cited = 0;
  answers.forEach((answer, i) => {
    const fact = facts[WARMUP + i];
    if (!fact) return;
    if (answer.status === "answered" && answer.text.includes(fact.value)) correct++;
    if (answer.citations.some((c) => c.passageId === fact.chunkId)) cited++;
  });
  const steps = answers.reduce((n, a) => n + a.stepCount, 0) / Math.max(1, answers.length);
  const toolCalls = answers.reduce((n, a) => n + a.usage.toolCalls, 0) / Math.max(1, answers.length);
  return {
    label,
    ask: latency(asked),
    search: latency(searched),
    answered: answers.length,
    correct,
    cited,
    meanSteps: steps,
    meanToolCalls: toolCalls,
  };
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const scales = ctx.quick ? [10_000] : [10_000, 100_000];
  const rows: ResultRow[] = [];
  const notes = [
    `${QUESTIONS} single-fact questions from the planted facts, after ${WARMUP} warm-up questions; keyword retrieval (no embedder), preset balanced, runs saved to the store as ask() does`,
  ];
  const extra: Record<string, unknown> = {};
  for (const chunks of scales) {
    const r = await atScale(ctx, chunks);
    extra[r.label] = r;
    const big = chunks >= 100_000;
    for (const p of ["p50", "p95"] as const) {
      rows.push({
        metric: `ask ${p} @${r.label}`,
        unit: "ms",
        ferret: r.ask[p],
        baseline: r.search[p],
        baselineName: "one search()",
        better: "lower",
        target: big && p === "p95" ? { op: "<", value: 100 } : undefined,
      });
    }
    rows.push({
      metric: `answers with the planted value @${r.label}`,
      unit: "fraction",
      ferret: r.correct / Math.max(1, r.answered),
      better: "higher",
    });
    notes.push(
      `@${r.label}: ${r.correct}/${r.answered} answers contain the planted value, ${r.cited}/${r.answered} cite its chunk; ${r.meanSteps.toFixed(1)} steps and ${r.meanToolCalls.toFixed(1)} tool calls per question`,
    );
    if (r.ask.n < QUESTIONS || r.search.n < QUESTIONS) {
      notes.push(`@${r.label}: stopped after ${r.ask.n} asks / ${r.search.n} searches (${BUDGET_MS / 1000}s budget)`);
    }
  }
  return { name: "ask-offline", rows, notes, extra };
}

export const askOfflineBenchmark: Benchmark = {
  name: "ask-offline",
  description: "end-to-end ask() with the offline engine at 10k and 100k chunks vs one search()",
  run,
};
