import { z } from "zod";
import type { Retriever } from "../retrieval/retriever.js";
import type { ToolDescriptor } from "../spec/engine.js";
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
  execute(args: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** A tool whose argument type is erased, as a toolset holds it. */
export type AnyTool = Tool<z.ZodType>;

/** Defines a tool typed from its zod schema, so `execute` infers its arguments. */
export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return tool;
}

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
  return { name: tool.name, description: tool.description, inputSchema: schema, parallelSafe: tool.parallelSafe };
}
