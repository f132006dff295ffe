import type { Preset } from "../spec/engine.js";

/** Loop-side settings of a preset. The engine reads `state.preset` for its own (e.g. the grade threshold). */
export interface PresetSettings {
  limits: {
    /** Plan -> search -> grade rounds. */
    maxSteps: number;
    maxToolCalls: number;
    /** Engine look-ups (probes) per run: routing, source ranking and name checks, each one traced. */
    maxProbes: number;
  };
  search: {
    /** Passages per search in the single-pass (rag) route. */
    k: number;
    /** Best score under which a search reports `low_confidence`. */
    lowConfidence: number;
  };
  answer: {
    /** Accept a partial draft as `partial`; otherwise it is refused. */
    allowPartial: boolean;
    /** Refuse when more than this share of the draft's claims fail the citation check. */
    maxUnsupportedShare: number;
  };
}

export const PRESETS: Readonly<Record<Preset, PresetSettings>> = Object.freeze({
  conservative: {
    limits: { maxSteps: 3, maxToolCalls: 8, maxProbes: 80 },
    search: { k: 5, lowConfidence: 0.45 },
    answer: { allowPartial: false, maxUnsupportedShare: 0.34 },
  },
  balanced: {
    limits: { maxSteps: 5, maxToolCalls: 12, maxProbes: 160 },
    search: { k: 6, lowConfidence: 0.35 },
    answer: { allowPartial: true, maxUnsupportedShare: 0.99 },
  },
  thorough: {
    limits: { maxSteps: 8, maxToolCalls: 24, maxProbes: 320 },
    search: { k: 8, lowConfidence: 0.3 },
    answer: { allowPartial: true, maxUnsupportedShare: 0.99 },
  },
});

export { PRESET_NAMES } from "../spec/engine.js";
