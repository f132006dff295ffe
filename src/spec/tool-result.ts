import type { Passage } from "./passage.js";

export type ToolStatus = "ok" | "no_results" | "low_confidence" | "timeout" | "rate_limited" | "denied" | "error";

/** What every tool returns. An empty search is a status with a hint, never an exception. */
export interface ToolResult {
  status: ToolStatus;
  passages?: Passage[];
  /** For run_sql: result rows, each with its `id` when it comes from a table source row. */
  rows?: Record<string, unknown>[];
  hint?: string;
  retryAfterMs?: number;
  /** True when the result came from the sub-query cache. */
  cached?: boolean;
}
