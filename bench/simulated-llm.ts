/**
 * simulated-llm: wall time and model round-trips per question when every model call costs real time.
 * One scripted "model" (fixed latency per call plus output tokens at a fixed rate) and one retriever
 * (ferret's keyword retriever over the 10k-chunk corpus) serve two loops:
 *  - ferret's agent loop (`askAgent`, mode auto): route, then one plan that decomposes the question and
 *    issues one search per part in parallel, grade, answer;
 *  - a sequential loop shaped like LangGraph's agentic-RAG tutorial: generate_query_or_respond -> retrieve
 *    -> grade_documents -> (rewrite_question -> generate_query_or_respond -> retrieve -> grade)* -> generate.
 * The model is an oracle for both: it knows each question's parts and grades by whether the planted values
 * are in the evidence, so the two loops differ only in how they spend round-trips.
 */
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { askAgent } from "../src/agent/index.js";
import type { Retriever } from "../src/retrieval/retriever.js";
import { createRetriever } from "../src/retrieval/search.js";
import type { AgentEngineV1, AgentState, LlmUsage } from "../src/spec/engine.js";
import type { Passage } from "../src/spec/passage.js";
import { LOCAL_OWNER } from "../src/spec/principal.js";
import { countTokens } from "../src/text/tokenize.js";
import { createCorpus, type PlantedFact } from "./corpus.js";
import { buildStore } from "./fixtures.js";
import { mean, now } from "./measure.js";
import type { BenchContext, Benchmark, BenchResult } from "./report.js";

const BASE_MS = 50;
const TOKENS_PER_SECOND = 1000;
const K = 5;
const MAX_REWRITES = 3;

interface Question {
  text: string;
  parts: PlantedFact[];
}

/** How long a simulated model call takes: a fixed part per call, plus time per output and per input token. */
export interface Latency {
  perCallMs: number;
  perOutputTokenMs: number;
  perInputTokenMs: number;
}

/** This benchmark's model: BASE_MS per call, output at TOKENS_PER_SECOND, input free. */
export const SIMULATED_LATENCY: Latency = {
  perCallMs: BASE_MS,
  perOutputTokenMs: 1000 / TOKENS_PER_SECOND,
  perInputTokenMs: 0,
};

/** The milliseconds one call takes under a latency model. */
export function simulatedCallMs(latency: Latency, tokens: { inputTokens: number; outputTokens: number }): number {
  return (
    latency.perCallMs + tokens.outputTokens * latency.perOutputTokenMs + tokens.inputTokens * latency.perInputTokenMs
  );
}

/** A model call: waits BASE_MS plus the output's tokens at TOKENS_PER_SECOND, and counts itself. */
class SimulatedModel {
  calls = 0;
  outputTokens = 0;
  async respond<T>(role: LlmUsage["role"], output: T): Promise<{ value: T; usage: LlmUsage[] }> {
    const outputTokens = countTokens(JSON.stringify(output));
    const ms = simulatedCallMs(SIMULATED_LATENCY, { inputTokens: 0, outputTokens });
    this.calls++;
    this.outputTokens += outputTokens;
    await sleep(ms);
    return { value: output, usage: [{ role, model: "bench:simulated", inputTokens: 0, outputTokens, costUsd: 0, ms }] };
  }
}

const has = (evidence: readonly Pick<Passage, "text">[], fact: PlantedFact) =>
  evidence.some((p) => p.text.includes(fact.sentence));
const partQuery = (fact: PlantedFact, attempt: number) =>
  attempt === 0 ? `${fact.attribute} of ${fact.entity}` : `${fact.entity} ${fact.attribute}`;

/** The oracle as an AgentEngineV1 for ferret's loop. */
function ferretEngine(model: SimulatedModel, questions: Map<string, Question>): AgentEngineV1 {
  const partsOf = (state: AgentState) => questions.get(state.question)?.parts ?? [];
  return {
    specificationVersion: "v1",
    name: "bench:simulated",
    async rewrite(question) {
      const r = await model.respond("rewriter", { standalone: question });
      return { ...r.value, usage: r.usage };
    },
    async route() {
      const r = await model.respond("router", { route: "agentic" as const, reason: "several facts to look up" });
      return { ...r.value, usage: r.usage };
    },
    async plan(state) {
      const parts = partsOf(state);
      const missing = parts.filter((f) => !has(state.evidence, f));
      const calls = state.forceAnswer
        ? []
        : missing.map((f) => ({ tool: "search", args: { query: partQuery(f, state.step - 1), k: K } }));
      const r = await model.respond("planner", {
        thought: missing.length > 0 ? "Look up each part." : "Enough evidence.",
        subQuestions: parts.map((f) => `What is the ${f.attribute} of ${f.entity}?`),
        calls,
        done: calls.length === 0,
      });
      return { ...r.value, usage: r.usage };
    },
    async grade(state) {
      const parts = partsOf(state);
      const subQuestions = parts.map((f, index) => {
        const ok = has(state.evidence, f);
        return {
          index,
          text: f.question,
          coverage: ok ? 1 : 0,
          confidence: ok ? 0.9 : 0,
          missing: ok ? [] : [f.entity],
          sufficient: ok,
        };
      });
      const r = await model.respond("grader", {
        subQuestions,
        sufficient: subQuestions.every((s) => s.sufficient),
        threshold: 1,
      });
      return { ...r.value, usage: r.usage };
    },
    async answer(state) {
      const claims = partsOf(state).flatMap((f) => {
        const n = state.evidence.findIndex((p) => p.text.includes(f.sentence)) + 1;
        return n > 0 ? [{ text: f.sentence, citations: [{ n, quote: f.sentence }] }] : [];
      });
      const status = claims.length === partsOf(state).length ? ("answered" as const) : ("partial" as const);
      const r = await model.respond("answerer", { status, claims });
      return { ...r.value, usage: r.usage };
    },
  };
}

/** LangGraph agentic-RAG tutorial shape, sequential, same model and retriever. Returns the answer text. */
async function sequentialLoop(model: SimulatedModel, retriever: Retriever, q: Question): Promise<string> {
  const evidence: Passage[] = [];
  let query = q.text;
  for (let rewrites = 0; ; rewrites++) {
    await model.respond("planner", { tool: "retrieve", args: { query } }); // generate_query_or_respond
    evidence.push(...(await retriever.search(query, { principal: LOCAL_OWNER, k: K, mode: "keyword" })));
    const missing = q.parts.filter((f) => !has(evidence, f));
    await model.respond("grader", { binary_score: missing.length === 0 ? "yes" : "no" }); // grade_documents
    if (missing.length === 0 || rewrites >= MAX_REWRITES) break;
    const target = missing[0];
    if (!target) break;
    query = (await model.respond("rewriter", { question: partQuery(target, 0) })).value.question; // rewrite_question
  }
  const found = q.parts.filter((f) => has(evidence, f)).map((f) => f.sentence);
  return (await model.respond("answerer", { answer: found.join(" ") })).value.answer; // generate_answer
}

function buildQuestions(facts: readonly PlantedFact[], count: number): Question[] {
  const out: Question[] = [];
  for (let i = 0; out.length < count; i++) {
    const size = i % 3 === 2 ? 3 : 2;
    const parts = Array.from({ length: size }, (_, j) => facts[(i * 7 + j * 31) % facts.length]!);
    const asks = parts.map((f) => `the ${f.attribute} of ${f.entity}`);
    const text = `What is ${asks.slice(0, -1).join(", ")} and ${asks[asks.length - 1]}?`;
    out.push({ text, parts });
  }
  return out;
}

interface LoopStats {
  ms: number[];
  trips: number[];
  tokens: number[];
  retrievalMs: number[];
  complete: number;
}

/** A retriever that adds the time spent in it to a counter. */
function timed(retriever: Retriever, spent: { ms: number }): Retriever {
  return {
    async search(query, options) {
      const start = now();
      try {
        return await retriever.search(query, options);
      } finally {
        spent.ms += now() - start;
      }
    },
  };
}

async function scenario(ctx: BenchContext, label: string, hardNegatives: number, count: number) {
  const corpus = createCorpus({ chunks: 10_000, hardNegatives });
  const store = await buildStore({ corpus, path: join(ctx.scratch, `sim-${label}.db`), progress: ctx.progress });
  const retriever = createRetriever({ store });
  const questions = buildQuestions(corpus.facts, count);
  const byText = new Map(questions.map((q) => [q.text, q]));
  const sources = await store.listSources(LOCAL_OWNER);
  const complete = (text: string, q: Question) => q.parts.every((f) => text.includes(f.value));
  const ferret: LoopStats = { ms: [], trips: [], tokens: [], retrievalMs: [], complete: 0 };
  const sequential: LoopStats = { ms: [], trips: [], tokens: [], retrievalMs: [], complete: 0 };
  for (const [i, q] of questions.entries()) {
    ctx.progress(`simulated-llm (${label}): question ${i + 1}/${questions.length} (${q.parts.length} parts)`);
    const fm = new SimulatedModel();
    const fSpent = { ms: 0 };
    let start = now();
    const answer = await askAgent({
      question: q.text,
      principal: LOCAL_OWNER,
      engine: ferretEngine(fm, byText),
      retriever: timed(retriever, fSpent),
      store,
      sources,
      persist: false,
    });
    ferret.ms.push(now() - start);
    ferret.trips.push(fm.calls);
    ferret.tokens.push(fm.outputTokens);
    ferret.retrievalMs.push(fSpent.ms);
    if (answer.status === "answered" && complete(answer.text, q)) ferret.complete++;

    const sm = new SimulatedModel();
    const sSpent = { ms: 0 };
    start = now();
    const text = await sequentialLoop(sm, timed(retriever, sSpent), q);
    sequential.ms.push(now() - start);
    sequential.trips.push(sm.calls);
    sequential.tokens.push(sm.outputTokens);
    sequential.retrievalMs.push(sSpent.ms);
    if (complete(text, q)) sequential.complete++;
  }
  await store.close();
  return { label, questions: questions.length, ferret, sequential };
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const count = ctx.quick ? 6 : 12;
  const scenarios = [await scenario(ctx, "plain", 0, count), await scenario(ctx, "hard negatives", 3, count)];
  const baselineName = "sequential (LangGraph shape)";
  const rows: BenchResult["rows"] = [];
  for (const { label, questions, ferret, sequential } of scenarios) {
    rows.push(
      {
        metric: `wall time per question, mean (${label})`,
        unit: "ms",
        ferret: mean(ferret.ms),
        baseline: mean(sequential.ms),
        baselineName,
        better: "lower",
      },
      {
        metric: `model round-trips per question (${label})`,
        unit: "calls",
        ferret: mean(ferret.trips),
        baseline: mean(sequential.trips),
        baselineName,
        better: "lower",
      },
      {
        metric: `model output tokens per question (${label})`,
        unit: "tokens",
        ferret: mean(ferret.tokens),
        baseline: mean(sequential.tokens),
        baselineName,
        better: "lower",
      },
      {
        metric: `retrieval time per question (${label})`,
        unit: "ms",
        ferret: mean(ferret.retrievalMs),
        baseline: mean(sequential.retrievalMs),
        baselineName,
        better: "lower",
      },
      {
        metric: `complete answers (${label})`,
        unit: "fraction",
        ferret: ferret.complete / questions,
        baseline: sequential.complete / questions,
        baselineName,
        better: "higher",
      },
    );
  }
  return {
    name: "simulated-llm",
    rows,
    notes: [
      `simulated model latency: ${BASE_MS} ms per call + output tokens at ${TOKENS_PER_SECOND} tokens/s (input tokens free); the same oracle model and the same keyword retriever (k=${K}, 10k-chunk corpus) for both loops`,
      `${count} questions asking for 2 or 3 planted facts each; ferret: askAgent mode auto (route, one plan with a search per part run in parallel, grade, answer), runs not saved; sequential: the whole question as the first query, up to ${MAX_REWRITES} rewrites, evidence accumulated across rounds`,
      "plain: the corpus as elsewhere (2 passing mentions per entity); hard negatives: 3 more chunks per fact name the entity and the attribute without the value, competing for the top k",
      "wall time includes retrieval; SQLite searches are synchronous, so ferret's parallel searches run one after another",
    ],
    extra: { scenarios },
  };
}

export const simulatedLlmBenchmark: Benchmark = {
  name: "simulated-llm",
  description: "ferret's loop vs a sequential retrieve-grade-rewrite-generate loop with a fixed-latency model",
  run,
};
