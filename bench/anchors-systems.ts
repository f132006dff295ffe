/**
 * The three systems of the anchors bench over one knowledge base: ferret (`ask()` with its LLM engine), a
 * LangGraph.js agentic-RAG graph, and a plain AI SDK tool loop. Each drives its own simulator instance (same
 * oracle, same latency) and retrieves through the same ferret instance's search, so only orchestration differs.
 */
import { type LoadedSet, principalFor } from "../src/eval/load-set.js";
import { answerCorrect } from "../src/eval/metrics/answer-correct.js";
import type { EvalQuestion } from "../src/eval/schema.js";
import { createFerret, type Ferret } from "../src/ferret.js";
import { createLlmEngine } from "../src/models/llm-engine.js";
import type { Principal } from "../src/spec/principal.js";
import { aiSdkLoop, simulatedResolvedModel } from "./anchors-ai-sdk.js";
import { agenticRagGraph, askGraph } from "./anchors-langgraph.js";
import { SEARCH_K, SimulatedLlm, type Task } from "./anchors-model.js";
import { Oracle } from "./anchors-oracle.js";
import { now } from "./measure.js";
import type { Latency } from "./simulated-llm.js";

export const SYSTEMS = ["ferret", "langgraph", "ai-sdk"] as const;
export type SystemName = (typeof SYSTEMS)[number];

export const SYSTEM_LABELS: Record<SystemName, string> = {
  ferret: "ferret (LLM engine, mode auto)",
  langgraph: "LangGraph agentic RAG",
  "ai-sdk": "AI SDK tool loop",
};

/** Steps of the AI SDK loop (`stopWhen: stepCountIs(n)`): ferret's balanced preset allows 5 plan steps plus the answer. */
export const LOOP_STEPS = 6;

export interface Outcome {
  system: SystemName;
  id: string;
  type: string;
  ms: number;
  /** Model calls, as the simulator counted them. */
  calls: number;
  inputTokens: number;
  outputTokens: number;
  tasks: Task[];
  text: string;
  refused: boolean;
  correct: boolean;
  /** ferret only: the model calls its own answer reports (`usage.llmCalls`). */
  reportedCalls?: number;
}

export interface World {
  ferret: Ferret;
  ask(system: SystemName, q: EvalQuestion): Promise<Outcome>;
  close(): Promise<void>;
}

/** Opens a ferret store at `db`, ingests the set, and wires the three systems to it. */
export async function openWorld(options: { set: LoadedSet; db: string; latency: Latency }): Promise<World> {
  const { set } = options;
  const oracle = new Oracle(set.questions);
  const llms: Record<SystemName, SimulatedLlm> = {
    ferret: new SimulatedLlm(oracle, options.latency),
    langgraph: new SimulatedLlm(oracle, options.latency),
    "ai-sdk": new SimulatedLlm(oracle, options.latency),
  };
  const engine = createLlmEngine({ planner: simulatedResolvedModel(llms.ferret), maxRetries: 0 });
  // No sub-query cache: the anchors search the store directly, so ferret repeats its searches in full too.
  const ferret = await createFerret({ db: options.db, model: engine, cache: false, env: {}, onWarning: () => {} });
  await ferret.ingest(set.dir, { tenant: set.tenant, prune: true, workers: 0 });
  let principal: Principal | undefined;
  const search = (query: string) => ferret.search(query, { principal, k: SEARCH_K });
  const graph = agenticRagGraph({ llm: llms.langgraph, search });

  const run = async (system: SystemName, q: EvalQuestion) => {
    principal = principalFor(set, q);
    const llm = llms[system];
    llm.take();
    const start = now();
    let text: string;
    let status: "answered" | "refused" | "partial";
    let citations: unknown[] = [];
    let reportedCalls: number | undefined;
    if (system === "ferret") {
      const answer = await ferret.ask(q.question, { principal });
      ({ text, status, citations } = answer);
      reportedCalls = answer.usage.llmCalls;
    } else {
      text =
        system === "langgraph"
          ? await askGraph(graph, q.question)
          : (await aiSdkLoop({ llm, question: q.question, search, maxSteps: LOOP_STEPS })).text;
      status = "answered";
    }
    const ms = now() - start;
    const meter = llm.take();
    if (system !== "ferret" && (meter.refusedLast || text.trim() === "")) status = "refused";
    const correct = answerCorrect({ status, text, citations: citations as never[] }, q);
    return {
      system,
      id: q.id,
      type: q.type,
      ms,
      calls: meter.calls,
      inputTokens: meter.inputTokens,
      outputTokens: meter.outputTokens,
      tasks: meter.tasks,
      text,
      refused: status === "refused",
      correct,
      ...(reportedCalls !== undefined ? { reportedCalls } : {}),
    };
  };
  return { ferret, ask: run, close: () => ferret.close() };
}
