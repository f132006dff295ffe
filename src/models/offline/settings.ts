import type { Preset } from "../../spec/engine.js";

/** How the offline engine trades recall against caution; named presets, nested and typed. */
export interface OfflineSettings {
  /** Coverage a sub-question needs at step 1; it falls by `thresholdStep` each step, down to `thresholdFloor`. */
  threshold: number;
  thresholdStep: number;
  thresholdFloor: number;
  /** Passages asked for by the first search of a part, and by later hops. */
  firstK: number;
  hopK: number;
  /** Sources searched per part: the best one, plus others scoring within `sourceMargin` of it. */
  maxSourcesPerPart: number;
  sourceMargin: number;
  /** Bridge entities tried per part and hop. */
  bridgesPerHop: number;
  /** Share of a part's terms the chosen answer sentences must cover, or the part is unsupported. */
  minAnswerCoverage: number;
  /** How answers are composed (direct answer, yes/no, superseded values). */
  answer: AnswerSettings;
}

export interface AnswerSettings {
  /** Share of the asked terms a sentence must state before its negation (or none) answers yes or no. */
  polarityCoverage: number;
  /** A unit of another document competes as a newer or older value when it scores this share of the answer's. */
  rivalScoreShare: number;
  /** Weight of a labelled number when choosing each side's value in a comparison. */
  measureLabelWeight: number;
  /** CJK words of at least this many characters count as names the answer's sentences must hold. */
  cjkNameLength: number;
  /** Share of the asked terms a prose sentence must hold for its value to be the direct answer. */
  proseValueCoverage: number;
  /** Longest value span (characters) a direct answer puts into the question's words. */
  maxValueLength: number;
}

const ANSWER: AnswerSettings = {
  polarityCoverage: 0.75,
  rivalScoreShare: 0.8,
  measureLabelWeight: 0.5,
  cjkNameLength: 3,
  proseValueCoverage: 0.6,
  maxValueLength: 80,
};

export const OFFLINE_PRESETS: Record<Preset, OfflineSettings> = {
  conservative: {
    threshold: 0.85,
    thresholdStep: 0.05,
    thresholdFloor: 0.65,
    firstK: 4,
    hopK: 3,
    maxSourcesPerPart: 1,
    sourceMargin: 0.9,
    bridgesPerHop: 1,
    minAnswerCoverage: 0.5,
    answer: ANSWER,
  },
  balanced: {
    threshold: 0.8,
    thresholdStep: 0.1,
    thresholdFloor: 0.5,
    firstK: 3,
    hopK: 3,
    maxSourcesPerPart: 2,
    sourceMargin: 0.8,
    bridgesPerHop: 1,
    minAnswerCoverage: 0.34,
    answer: ANSWER,
  },
  thorough: {
    threshold: 0.85,
    thresholdStep: 0.1,
    thresholdFloor: 0.4,
    firstK: 5,
    hopK: 4,
    maxSourcesPerPart: 3,
    sourceMargin: 0.6,
    bridgesPerHop: 2,
    minAnswerCoverage: 0.3,
    answer: ANSWER,
  },
};

export function thresholdAt(settings: OfflineSettings, step: number): number {
  return Math.max(settings.thresholdFloor, settings.threshold - settings.thresholdStep * Math.max(0, step - 1));
}
