import type { ToolResult } from "../spec/tool-result.js";

/** Raised through the tool's signal when it runs past its time limit. */
export class ToolTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`tool call took longer than ${ms} ms`);
    this.name = "ToolTimeoutError";
  }
}

/** Turns an exception inside a tool into a result the model can act on. Never an empty success. */
export function errorResult(error: unknown, tool: string): ToolResult {
  if (error instanceof ToolTimeoutError) {
    return { status: "timeout", hint: `${tool} took longer than ${error.ms} ms; try a narrower query or a smaller k` };
  }
  const limited = rateLimit(error);
  if (limited) {
    return {
      status: "rate_limited",
      retryAfterMs: limited.retryAfterMs,
      hint: `${tool} is rate limited${limited.retryAfterMs !== undefined ? `; retry after ${limited.retryAfterMs} ms` : ""}`,
    };
  }
  const name = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  return { status: "error", hint: `${tool} failed (${name}: ${message}); try different arguments or another tool` };
}

/** A 429 (or an explicit retryAfterMs) anywhere in the cause chain. */
function rateLimit(error: unknown): { retryAfterMs?: number } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const e = current as { status?: unknown; statusCode?: unknown; retryAfterMs?: unknown; cause?: unknown };
    const retryAfterMs = typeof e.retryAfterMs === "number" ? e.retryAfterMs : undefined;
    if (e.status === 429 || e.statusCode === 429 || retryAfterMs !== undefined) return { retryAfterMs };
    current = e.cause;
  }
  return undefined;
}
