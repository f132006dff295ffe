import { z } from "zod";
import type { Retriever } from "../retrieval/retriever.js";
import type { ToolDescriptor, ToolReads } from "../spec/engine.js";
import type { Principal } from "../spec/principal.js";
import type { SourceInfo } from "../spec/source.js";
import type { StoreV1 } from "../spec/store.js";
import type { ToolResult } from "../spec/tool-result.js";

/** Below this best score a search reports `low_confidence` (passages are still returned). */
export const DEFAULT_LOW_CONFIDENCE = 0.35;

/** What every tool execution gets. The principal comes only from here: no argument can widen it. */
export interface ToolContext {
  principal: Principal;
  retriever: Retriever;
  store: StoreV1;
  /** Sources the principal may read. */
  sources: SourceInfo[];
  signal: AbortSignal;
  /** The time this call may take (the executor's per-tool limit); a tool with its own limit stays below it. */
  timeoutMs?: number;
  /** Calibrated threshold for `low_confidence`; default 0.35. */
  lowConfidence?: number;
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  inputSchema: S;
  /** Safe to run in parallel with other calls (read-only, no shared mutable state). */
  parallelSafe: boolean;
  /**
   * Its ok / no_results / low_confidence results may be cached for the same arguments, principal and data
   * (a read-only, deterministic tool that is also `parallelSafe`). Default false.
   */
  cacheable?: boolean;
  /** What a call reads of the knowledge base (see `ToolReads`). Default `passages`. */
  reads?: ToolReads;
  /** How a call is described to a person, e.g. in a refusal: `api_docs for 'refund timeout'`. */
  describeCall?: (args: z.output<S>) => string;
  execute(args: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** What a tool reads, with the default applied. */
export function readsOf(tool: Pick<AnyTool, "reads"> | undefined): ToolReads {
  return tool?.reads ?? "passages";
}

/** A call in words, by the tool's own `describeCall` (arguments validated first), else its name and arguments. */
export function describeToolCall(tool: AnyTool | undefined, name: string, args: Record<string, unknown>): string {
  const parsed = tool?.describeCall ? tool.inputSchema.safeParse(args) : undefined;
  if (tool?.describeCall && parsed?.success) return tool.describeCall(parsed.data);
  return `${name} ${JSON.stringify(args)}`;
}

/** A tool whose argument type is erased, as a toolset holds it. */
export type AnyTool = Tool<z.ZodType>;

/** Defines a tool typed from its zod schema, so `execute` infers its arguments. */
export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return tool;
}

/**
 * A schema built from plain arguments (the source names a run may read), built once per distinct arguments:
 * every run builds its toolset, and the JSON Schema of a schema object is kept per object (below). Bounded.
 */
export function schemaPerArguments<A extends unknown[], S extends z.ZodType>(
  build: (...args: A) => S,
): (...args: A) => S {
  const built = new Map<string, S>();
  return (...args: A): S => {
    const key = JSON.stringify(args);
    let schema = built.get(key);
    if (schema === undefined) {
      if (built.size >= SCHEMAS_KEPT) built.clear();
      schema = build(...args);
      built.set(key, schema);
    }
    return schema;
  };
}
const SCHEMAS_KEPT = 64;

/** JSON Schema per zod schema: converting one takes longer than a search, and every run describes every tool. */
const jsonSchemas = new WeakMap<z.ZodType, Record<string, unknown>>();

function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  let json = jsonSchemas.get(schema);
  if (json === undefined) {
    json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
    delete json.$schema;
    jsonSchemas.set(schema, json);
  }
  return structuredClone(json);
}

/** What a planner is told about the tool: the JSON Schema of the input the model writes. */
export function describeTool(tool: AnyTool): ToolDescriptor {
  const schema = inputJsonSchema(tool.inputSchema);
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: schema,
    parallelSafe: tool.parallelSafe,
    reads: readsOf(tool),
    cacheable: tool.cacheable === true,
  };
}
