import type { AgentEngineV1, AgentState, Preset } from "../../spec/engine.js";
import { decompose } from "./analyze.js";
import { answerFromEvidence } from "./answer.js";
import { gradeParts } from "./grade.js";
import { planCalls } from "./plan.js";
import { rewriteFollowUp } from "./rewrite.js";
import { routeQuestion } from "./route.js";
import { OFFLINE_PRESETS, type OfflineSettings } from "./settings.js";

export { extractEntities, mentions } from "../../text/entities.js";
export { decompose, type QuestionPart } from "./analyze.js";
export { OFFLINE_PRESETS, type OfflineSettings } from "./settings.js";

export interface OfflineEngineOptions {
  /** Override preset settings (applied over the run's preset). */
  settings?: Partial<OfflineSettings>;
}

/**
 * The deterministic engine used when no model is configured: it plans, grades and answers with
 * algorithms over the question's structure and the evidence text. No network, no randomness; its
 * output is always labelled `offline`.
 */
export function createOfflineEngine(options: OfflineEngineOptions = {}): AgentEngineV1 {
  const settingsFor = (preset: Preset): OfflineSettings => ({ ...OFFLINE_PRESETS[preset], ...options.settings });
  const partsOf = (state: AgentState) => decompose(state.standaloneQuestion);
  return {
    specificationVersion: "v1",
    name: "offline",
    async rewrite(question, history) {
      return { standalone: rewriteFollowUp(question, history) };
    },
    route: (state, ctx) => routeQuestion(state, ctx),
    plan: (state, ctx) => planCalls(state, ctx, partsOf(state), settingsFor(state.preset)),
    async grade(state) {
      return gradeParts(state, partsOf(state), settingsFor(state.preset));
    },
    async answer(state) {
      return answerFromEvidence(state, partsOf(state), settingsFor(state.preset));
    },
  };
}
