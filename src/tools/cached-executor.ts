import type { SubQueryCache } from "../retrieval/cache.js";
import type { ToolResult, ToolStatus } from "../spec/tool-result.js";
import type { ToolCallRequest } from "../spec/trace.js";
import type { ToolContext } from "./define-tool.js";
import { executeToolCall } from "./execute-tool-call.js";
import type { Toolset } from "./toolset.js";

const CACHEABLE_STATUS: ReadonlySet<ToolStatus> = new Set(["ok", "no_results", "low_confidence"]);

/** Same signature as `executeToolCall`. */
export type ToolExecutor = (
  toolset: Toolset,
  call: Pick<ToolCallRequest, "tool" | "args">,
  ctx: ToolContext,
  options?: { timeoutMs?: number },
) => Promise<ToolResult>;

export interface CreateCachedExecutorOptions {
  cache: SubQueryCache;
  /** Only these tools (by name) may be cached; default every tool that declares itself `cacheable`. */
  tools?: readonly string[];
  /** The executor to wrap. Default `executeToolCall`. */
  execute?: ToolExecutor;
}

/**
 * `executeToolCall` with a sub-query cache in front: a hit returns the stored result marked `cached: true`.
 * Only ok / no_results / low_confidence results of parallel-safe read tools are stored; errors, denials and
 * time-outs never are. The key carries the principal's tenant, roles and readable sources, so an entry is
 * never served to anyone whose access differs, and the store's data version (one cheap read per call), so an
 * ingest, delete or ACL change made by any process is seen by the next call.
 */
export function createCachedExecutor(options: CreateCachedExecutorOptions): ToolExecutor {
  const { cache } = options;
  const allowed = options.tools ? new Set(options.tools) : undefined;
  const execute = options.execute ?? executeToolCall;

  return async (toolset, call, ctx, execOptions) => {
    const tool = toolset.get(call.tool);
    const cacheable = tool?.cacheable === true && tool.parallelSafe && (allowed?.has(tool.name) ?? true);
    if (tool === undefined || !cacheable || ctx.signal.aborted) {
      return execute(toolset, call, ctx, execOptions);
    }
    const parsed = tool.inputSchema.safeParse(call.args ?? {});
    if (!parsed.success || parsed.data === null || typeof parsed.data !== "object") {
      return execute(toolset, call, ctx, execOptions);
    }
    const args = parsed.data as Record<string, unknown>;
    const readable = ctx.sources.map((s) => s.name);
    // Read before the call runs: data changed meanwhile is then cached under the older version, never the
    // reverse. A store that cannot say runs the call uncached (its own failure, if any, is the tool's).
    let dataVersion: number;
    try {
      dataVersion = await ctx.store.dataVersion(ctx.principal.tenant);
    } catch {
      return execute(toolset, call, ctx, execOptions);
    }
    const key = { tool: tool.name, args, principal: ctx.principal, readable, dataVersion };
    const hit = cache.get(key);
    if (hit !== undefined) return { ...hit, cached: true };

    const result = await execute(toolset, call, ctx, execOptions);
    if (CACHEABLE_STATUS.has(result.status) && !ctx.signal.aborted) {
      cache.set(key, result, sourcesOf(args, readable, result));
    }
    return result;
  };
}

/** The sources an entry depends on: the named corpus, else every readable source; plus those of its passages. */
function sourcesOf(args: Record<string, unknown>, readable: readonly string[], result: ToolResult): string[] {
  const out = new Set<string>(typeof args.corpus === "string" ? [args.corpus] : readable);
  for (const p of result.passages ?? []) out.add(p.source);
  return [...out];
}
