import type { AgentEngineV1, AgentState, EngineContext, Preset } from "../../spec/engine.js";
import { type AnalyzeOptions, aboutThing, askedFor, decompose, type QuestionPart } from "./analyze.js";
import { answerFromEvidence } from "./answer.js";
import { calibrate } from "./confidence.js";
import { gradeParts } from "./grade.js";
import { planCalls } from "./plan.js";
import { referent } from "./referent.js";
import { rewriteFollowUp } from "./rewrite.js";
import { routeQuestion } from "./route.js";
import { OFFLINE_PRESETS, type OfflineSettings } from "./settings.js";

export { extractEntities, mentions } from "../../text/entities.js";
export { decompose, type QuestionPart } from "./analyze.js";
export { OFFLINE_PRESETS, type OfflineSettings, type RefusalSettings } from "./settings.js";

/**
 * Per part, the words naming what it asks for that nothing the principal may read contains ("What weekly
 * stipend ..." asked by someone who cannot read the compensation policy). Such a part cannot be answered,
 * however much else of it the evidence covers.
 */
async function unknownTerms(parts: QuestionPart[], ctx: EngineContext): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!ctx.probe) return out;
  for (const [index, part] of parts.entries()) {
    const missing: string[] = [];
    for (const word of askedFor(part.text)) {
      const hits = await ctx.probe(word, { k: 1 });
      // No probe left: the word is not known to be missing.
      if (hits !== undefined && hits.length === 0) missing.push(word);
    }
    if (missing.length > 0) out.set(index, missing);
  }
  return out;
}

export interface OfflineEngineOptions {
  /** Override preset settings (applied over the run's preset). */
  settings?: Partial<OfflineSettings>;
  /** Refuse answers below this confidence (0..1), over the preset's calibrated threshold. */
  minConfidence?: number;
}

/** Later parts that point back by kind, asked about the thing the first part's chain reached (referent.ts). */
function withReferents(state: AgentState, parts: QuestionPart[], options: AnalyzeOptions): QuestionPart[] {
  const first = parts[0];
  if (!first) return parts;
  return parts.map((part, i) => {
    if (i === 0 || !part.refersTo) return part;
    const thing = referent(state, part.refersTo, first);
    return thing ? aboutThing(part, thing, options) : part;
  });
}

/**
 * The deterministic engine used when no model is configured: it plans, grades and answers with
 * algorithms over the question's structure and the evidence text. No network, no randomness; its
 * output is always labelled `offline`.
 */
export function createOfflineEngine(options: OfflineEngineOptions = {}): AgentEngineV1 {
  const settingsFor = (preset: Preset): OfflineSettings => {
    const base = { ...OFFLINE_PRESETS[preset], ...options.settings };
    return options.minConfidence === undefined
      ? base
      : { ...base, refusal: { ...base.refusal, minConfidence: options.minConfidence } };
  };
  const partsOf = (state: AgentState) => {
    const { hop, names, answer } = settingsFor(state.preset);
    const options = {
      participleChains: hop.participleChains,
      definiteRefs: hop.definiteRefs,
      names,
      lineItems: answer.lineItems,
    };
    const parts = decompose(state.standaloneQuestion, options);
    return hop.referents ? withReferents(state, parts, options) : parts;
  };
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
    async answer(state, ctx) {
      const parts = partsOf(state);
      const settings = settingsFor(state.preset);
      const draft = answerFromEvidence(state, parts, settings, await unknownTerms(parts, ctx));
      return calibrate(state, parts, draft, settings.refusal, settings.aliases.codes);
    },
  };
}
