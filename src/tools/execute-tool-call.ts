import type { z } from "zod";
import type { ToolResult } from "../spec/tool-result.js";
import type { ToolCallRequest } from "../spec/trace.js";
import { onAbort } from "../util/on-abort.js";
import type { ToolContext } from "./define-tool.js";
import { errorResult, ToolTimeoutError } from "./error-result.js";
import type { Toolset } from "./toolset.js";

export const DEFAULT_TOOL_TIMEOUT_MS = 10_000;

/**
 * Validates and runs one call under a time limit. Never throws: unknown tools, bad arguments, exceptions,
 * time-outs and rate limits all come back as a ToolResult status with an actionable hint.
 */
export async function executeToolCall(
  toolset: Toolset,
  call: Pick<ToolCallRequest, "tool" | "args">,
  ctx: ToolContext,
  options: { timeoutMs?: number } = {},
): Promise<ToolResult> {
  const tool = toolset.get(call.tool);
  if (tool === undefined) {
    return { status: "error", hint: `unknown tool '${call.tool}'; available tools: ${toolset.names().join(", ")}` };
  }
  const parsed = tool.inputSchema.safeParse(call.args ?? {});
  if (!parsed.success) {
    return { status: "error", hint: `bad arguments for ${tool.name}: ${renderIssues(parsed.error.issues)}` };
  }
  if (ctx.signal.aborted) return { status: "error", hint: `${tool.name} was not run: the run was aborted` };

  const timeoutMs = options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const controller = new AbortController();
  // Parallel calls share the run's signal: one listener on it for all of them (see util/on-abort.ts).
  const offParentAbort = onAbort(ctx.signal, () => controller.abort(ctx.signal.reason));
  const timer = setTimeout(() => controller.abort(new ToolTimeoutError(timeoutMs)), timeoutMs);
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
  });
  try {
    return await Promise.race([tool.execute(parsed.data, { ...ctx, signal: controller.signal, timeoutMs }), aborted]);
  } catch (error) {
    if (ctx.signal.aborted && !(error instanceof ToolTimeoutError)) {
      return { status: "error", hint: `${tool.name} was stopped: the run was aborted` };
    }
    return errorResult(error, tool.name);
  } finally {
    clearTimeout(timer);
    offParentAbort();
    aborted.catch(() => {});
  }
}

/** Zod issues as one readable line: `k: Too big: expected number to be <=20; query: ...`. */
export function renderIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join(".") : "arguments"}: ${issue.message}`)
    .join("; ");
}
