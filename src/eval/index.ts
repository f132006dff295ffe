export * from "./aggregate.js";
export * from "./attribution.js";
export * from "./gate.js";
export * from "./load-set.js";
export * from "./report.js";
export * from "./run-eval.js";
export * from "./schema.js";
export * from "./score-question.js";
