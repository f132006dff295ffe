import type { Tracer } from "@opentelemetry/api";
import { DEFAULT_PRESET, PRESET_NAMES, PRESETS, type PresetSettings } from "../config/presets.js";
import type { Retriever } from "../retrieval/retriever.js";
import type { EvidenceItem } from "../spec/answer.js";
import type { AgentEngineV1, CallRecord, GradeResult, Preset } from "../spec/engine.js";
import { InvalidInputError } from "../spec/errors.js";
import type { Principal } from "../spec/principal.js";
import type { RerankerV1 } from "../spec/reranker.js";
import type { SourceInfo } from "../spec/source.js";
import type { SessionTurn, StoreV1 } from "../spec/store.js";
import type { CheckpointDecision, CheckpointKind } from "../spec/trace.js";
import type { executeToolCall } from "../tools/execute-tool-call.js";
import type { Toolset } from "../tools/toolset.js";

export type AgentMode = "auto" | "rag" | "agentic";

export interface AgentLimits {
  maxSteps: number;
  maxToolCalls: number;
  /** Look-ups the engine may make to decide (routing, source ranking, name checks); see `usage.probes`. */
  maxProbes: number;
  /** Input plus output tokens over every engine call. */
  maxTokens: number;
  maxCostUsd: number;
  /** Wall time of the whole run. */
  timeoutMs: number;
  /** Per tool call. */
  toolTimeoutMs: number;
}

export interface CheckpointSettings {
  /** Pause each time the run's tool calls pass a multiple of this number. */
  afterSearches?: number;
  onNoResults?: boolean;
  onLowConfidence?: boolean;
  beforeAnswer?: boolean;
}

/** What a checkpoint handler is shown. */
export interface CheckpointRequest {
  kind: CheckpointKind;
  runId: string;
  step: number;
  question: string;
  toolCalls: number;
  evidence: readonly EvidenceItem[];
  calls: readonly CallRecord[];
  lastGrade?: GradeResult;
}

export interface RunAgentOptions {
  question: string;
  history?: Pick<SessionTurn, "role" | "content">[];
  principal: Principal;
  engine: AgentEngineV1;
  retriever: Retriever;
  store: StoreV1;
  /** Sources the principal may read (`store.listSources(principal)`). */
  sources: SourceInfo[];
  /** Default: `createToolset({ sources })`. */
  toolset?: Toolset;
  mode?: AgentMode;
  preset?: Preset;
  limits?: Partial<AgentLimits>;
  checkpoints?: CheckpointSettings;
  onCheckpoint?: (request: CheckpointRequest) => Promise<CheckpointDecision>;
  signal?: AbortSignal;
  now?: () => number;
  newId?: () => string;
  /** Shown as the answer's model; default `engine.name`. */
  modelName?: string;
  /** Where spans go; default the global `@opentelemetry/api` tracer (a no-op without an SDK). */
  tracer?: Tracer;
  /** Runs a tool call; default `executeToolCall` (a cached executor from `createCachedExecutor` fits here). */
  executeTool?: typeof executeToolCall;
  /** Re-orders the gathered evidence against the original question before the answerer sees it. */
  reranker?: RerankerV1;
  /** Keep the run record out of the store (it is saved by default). */
  persist?: boolean;
  /** What is left of a spending allowance, USD: no model call may pass it (stop reason `spend_cap`). */
  spendCapUsd?: number;
}

export interface ResolvedSettings {
  mode: AgentMode;
  preset: Preset;
  presetSettings: PresetSettings;
  limits: AgentLimits;
  checkpoints: CheckpointSettings;
}

/** Checks the options (a bad option is a programmer error and throws) and fills in defaults. */
export function resolveSettings(options: RunAgentOptions): ResolvedSettings {
  if (typeof options.question !== "string" || options.question.trim() === "") {
    throw new InvalidInputError("question must be a non-empty string", { field: "question" });
  }
  const mode = options.mode ?? "auto";
  if (!["auto", "rag", "agentic"].includes(mode)) {
    throw new InvalidInputError(`mode must be auto, rag or agentic, not '${mode}'`, { field: "mode" });
  }
  const preset = options.preset ?? DEFAULT_PRESET;
  const presetSettings = PRESETS[preset];
  if (presetSettings === undefined) {
    throw new InvalidInputError(`preset must be one of ${PRESET_NAMES.join(", ")}, not '${preset}'`, {
      field: "preset",
    });
  }
  for (const name of ["principal", "engine", "retriever", "store", "sources"] as const) {
    if (options[name] === undefined || options[name] === null) {
      throw new InvalidInputError(`${name} is required`, { field: name });
    }
  }
  const limits: AgentLimits = {
    maxSteps: presetSettings.limits.maxSteps,
    maxToolCalls: presetSettings.limits.maxToolCalls,
    maxProbes: presetSettings.limits.maxProbes,
    maxTokens: Number.POSITIVE_INFINITY,
    maxCostUsd: Number.POSITIVE_INFINITY,
    timeoutMs: 60_000,
    toolTimeoutMs: 10_000,
    ...definedOnly(options.limits ?? {}),
  };
  for (const [name, value] of Object.entries(limits)) {
    if (typeof value !== "number" || Number.isNaN(value) || value <= 0) {
      throw new InvalidInputError(`limits.${name} must be a positive number`, { field: `limits.${name}` });
    }
  }
  if (
    !Number.isInteger(limits.maxSteps) ||
    !Number.isInteger(limits.maxToolCalls) ||
    !Number.isInteger(limits.maxProbes)
  ) {
    throw new InvalidInputError("limits.maxSteps, limits.maxToolCalls and limits.maxProbes must be integers", {
      field: "limits",
    });
  }
  return { mode, preset, presetSettings, limits, checkpoints: options.checkpoints ?? {} };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
