import type { EvidenceItem } from "./answer.js";
import type { GraphEntity } from "./graph.js";
import type { Passage } from "./passage.js";
import type { SourceInfo } from "./source.js";
import type { SqlDialect } from "./sql-dialect.js";
import type { SessionTurn } from "./store.js";
import type { ToolStatus } from "./tool-result.js";
import type { Route, SubQuestionGrade, ToolCallRequest } from "./trace.js";

/** What a planner is told about a tool. `inputSchema` is JSON Schema (from the tool's zod schema). */
/**
 * What a tool call reads of the knowledge base: passages of documents (a retrieval), rows or schemas of
 * tables (a retrieval whose answer may come from any table it could read), or nothing (listing sources).
 */
export type ToolReads = "passages" | "tables" | "none";

export interface ToolDescriptor {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** Safe to run in parallel with other calls. */
  parallelSafe: boolean;
  /** What a call reads (absent: passages). */
  reads?: ToolReads;
  /** Its results may be cached. */
  cacheable?: boolean;
}

/** The behaviour presets, by name: their settings live in `config/presets.ts` (and the offline engine's own part). */
export const PRESET_NAMES = ["conservative", "balanced", "thorough"] as const;
export type Preset = (typeof PRESET_NAMES)[number];

export interface CallRecord {
  call: ToolCallRequest;
  step: number;
  status: ToolStatus;
  /** `passageKey` (source and id) of each passage it returned, in order (numbered in `evidence`). */
  passageKeys: string[];
  rows?: Record<string, unknown>[];
  hint?: string;
  best?: number;
}

/** Everything an engine sees: the question, the sources, the evidence so far. Retrieved text is data. */
export interface AgentState {
  runId: string;
  question: string;
  /** The question rewritten to stand alone (follow-ups resolved against the history). */
  standaloneQuestion: string;
  history: Pick<SessionTurn, "role" | "content">[];
  sources: SourceInfo[];
  tools: ToolDescriptor[];
  /**
   * The SQL dialect `run_sql` speaks: the store's (`TableStoreV1.sqlDialect`), absent when the store keeps no
   * tables. An engine that writes SQL itself uses it for what differs between databases.
   */
  sqlDialect?: SqlDialect;
  step: number;
  maxSteps: number;
  preset: Preset;
  /** Every passage gathered so far, in the order found; citation `[n]` names `evidence[n - 1]`. */
  evidence: EvidenceItem[];
  calls: CallRecord[];
  /** From the latest plan. */
  subQuestions: string[];
  lastGrade?: GradeResult;
  /** The last step: the engine must answer now from what it has. */
  forceAnswer: boolean;
  /** A person at a checkpoint asked to search for this instead. */
  rephrase?: string;
}

export interface LlmUsage {
  role: "router" | "planner" | "grader" | "answerer" | "rewriter";
  model: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  ms: number;
}

export type WithUsage<T> = T & { usage?: LlmUsage[] };

export interface RouteDecision {
  route: Route;
  reason: string;
  /** For `none`: the reply to give without retrieval. */
  reply?: string;
  /**
   * For `rag` after a first search (`AgentEngineV1.searchFirst`): the answer drafted from the passages in the
   * same call, cited against `state.evidence` (partial or refused when the router found nothing more worth
   * searching). The loop then answers without another model call.
   */
  answer?: DraftAnswer;
}

export interface PlanResult {
  thought: string;
  subQuestions: string[];
  calls: Omit<ToolCallRequest, "callId">[];
  /** The planner has nothing more worth searching. */
  done: boolean;
}

export interface GradeResult {
  subQuestions: SubQuestionGrade[];
  sufficient: boolean;
  /** The coverage threshold applied at this step (it falls as steps pass). */
  threshold: number;
  /** The grader found nothing more worth searching: the loop ends after this step. */
  done?: boolean;
  /**
   * When sufficient: the answer drafted from the passages in the same call, cited against `state.evidence`; when
   * `done`: the best answer they allow (partial or refused). The loop then answers without another model call.
   */
  answer?: DraftAnswer;
}

export interface DraftClaim {
  text: string;
  /** `n` names `evidence[n - 1]`; `quote` must occur in that passage's text. */
  citations: { n: number; quote: string }[];
}

export interface DraftAnswer {
  status: "answered" | "partial" | "refused";
  claims: DraftClaim[];
  /** For a refusal or a partial answer: what was searched and what is missing. */
  reason?: string;
  /** 0..1: how well the cited evidence covers the question (engines that calibrate refusal set it). */
  confidence?: number;
}

export interface EngineContext {
  signal: AbortSignal;
  /**
   * A read-only retrieval probe under the run's principal (for routing by probe scores). It runs as a traced
   * `search` call through the run's executor and counts in `usage.probes`; `undefined` when the run's probe
   * budget (`limits.maxProbes`) is spent or the search failed: the caller then decides without it (never as
   * "nothing found").
   */
  probe?: (query: string, options: { sources?: string[]; k?: number }) => Promise<Passage[] | undefined>;
  /**
   * The entity graph under the run's principal, when the store keeps one: the entity with this exact key,
   * and whether a readable document is titled after it (defines it). A traced `search_entity` probe, budgeted
   * like `probe`.
   */
  entity?: (value: string) => Promise<{ entity: GraphEntity; defined: boolean } | undefined>;
}

/** The thinking parts of the loop. The offline engine and the LLM engine both implement it. */
export interface AgentEngineV1 {
  readonly specificationVersion: "v1";
  /** `offline` or `provider:model`. */
  readonly name: string;
  /**
   * In mode auto, search the question once before routing, so `route` sees what one search finds and can
   * answer an easy question in the same call (`RouteDecision.answer`).
   */
  readonly searchFirst?: boolean;
  rewrite(
    question: string,
    history: AgentState["history"],
    ctx: EngineContext,
  ): Promise<WithUsage<{ standalone: string }>>;
  route(state: AgentState, ctx: EngineContext): Promise<WithUsage<RouteDecision>>;
  plan(state: AgentState, ctx: EngineContext): Promise<WithUsage<PlanResult>>;
  grade(state: AgentState, ctx: EngineContext): Promise<WithUsage<GradeResult>>;
  answer(state: AgentState, ctx: EngineContext): Promise<WithUsage<DraftAnswer>>;
  /**
   * Optional: the answer as it is written. The loop uses it instead of `answer` and emits each delta as an
   * `answer-draft-delta` event; the resolved answer is checked and cited as `answer`'s would be.
   */
  answerStream?(state: AgentState, ctx: EngineContext): AnswerStreamV1;
}

/** An answer written as a stream: unverified draft text as it arrives, then the answer (authoritative). */
export interface AnswerStreamV1 {
  /** Draft text as it is written (claim texts joined by a space, without citation marks). */
  deltas: AsyncIterable<string>;
  answer: Promise<WithUsage<DraftAnswer>>;
}
