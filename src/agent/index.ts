export { PRESET_NAMES, PRESETS, type PresetSettings } from "../config/presets.js";
export { type CheckedClaim, type CitationCheck, checkCitations } from "./citations.js";
export type { AgentLimits, AgentMode, CheckpointRequest, CheckpointSettings, RunAgentOptions } from "./options.js";
export { askAgent, runAgent } from "./run-agent.js";
export {
  costBudget,
  evidenceSufficient,
  firstStop,
  isStepCount,
  type LoopSnapshot,
  type StopCondition,
  timeout,
  tokenBudget,
  toolCallCount,
} from "./stop-conditions.js";
