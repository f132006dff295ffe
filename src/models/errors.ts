import type { LlmUsage } from "../spec/engine.js";
import { FerretError } from "../spec/errors.js";

/**
 * A model replied, but not in a shape the engine can use (unparseable tool-call text, JSON that does not
 * match the schema) even after one retry that showed it the error. The loop catches it and falls back.
 */
export class ModelOutputError extends FerretError {
  /** What the failed calls cost, so budgets still count them. */
  readonly usage: LlmUsage[];
  constructor(
    message: string,
    options: { role: LlmUsage["role"]; model: string; raw?: string; usage?: LlmUsage[]; cause?: unknown },
  ) {
    super("ModelOutputError", message, {
      category: "upstream",
      cause: options.cause,
      context: { role: options.role, model: options.model, raw: options.raw?.slice(0, 2000) },
    });
    this.usage = options.usage ?? [];
  }
}
