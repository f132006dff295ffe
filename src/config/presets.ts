import { PRESET_NAMES, type Preset } from "../spec/engine.js";

/**
 * The behaviour presets, in one place: every setting a preset decides for the loop and the LLM grader, by
 * preset name. The names themselves are part of the engine spec (`PRESET_NAMES`, re-exported here); the
 * offline engine keys its own tuning by the same names (`models/offline/settings.ts`).
 */
export { PRESET_NAMES, type Preset };

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
  grade: {
    /** The coverage an LLM grader asks of a sub-question at the first step (eased a little each step). */
    coverageThreshold: number;
  };
}

export const PRESETS: Readonly<Record<Preset, PresetSettings>> = Object.freeze({
  conservative: {
    limits: { maxSteps: 3, maxToolCalls: 8, maxProbes: 80 },
    search: { k: 5, lowConfidence: 0.45 },
    answer: { allowPartial: false, maxUnsupportedShare: 0.34 },
    grade: { coverageThreshold: 0.85 },
  },
  balanced: {
    limits: { maxSteps: 5, maxToolCalls: 12, maxProbes: 160 },
    search: { k: 6, lowConfidence: 0.35 },
    answer: { allowPartial: true, maxUnsupportedShare: 0.99 },
    grade: { coverageThreshold: 0.75 },
  },
  thorough: {
    limits: { maxSteps: 8, maxToolCalls: 24, maxProbes: 320 },
    search: { k: 8, lowConfidence: 0.3 },
    answer: { allowPartial: true, maxUnsupportedShare: 0.99 },
    grade: { coverageThreshold: 0.9 },
  },
});

/** The preset a run uses when none is named. */
export const DEFAULT_PRESET: Preset = "balanced";
