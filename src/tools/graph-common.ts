import { z } from "zod";
import type { GraphEdge } from "../spec/graph.js";
import type { ToolResult } from "../spec/tool-result.js";

export const ENTITY_TYPES = ["identifier", "path", "ip", "email", "code", "quoted", "name", "title"] as const;

export const entityTypeSchema = z
  .enum(ENTITY_TYPES)
  .describe(
    "Kind of entity: identifier (T-1042), path (/v2/refunds), ip, email, code (refund-orchestrator), quoted, name, title.",
  );

/** What a graph tool says when the store keeps no entity graph: an error the planner can act on. */
export function noGraph(tool: string): ToolResult {
  return { status: "error", hint: `${tool} is unavailable: this store keeps no entity graph; use search instead` };
}

/** An edge as a result row. */
export function edgeRow(edge: GraphEdge): Record<string, unknown> {
  return { from: edge.from, to: edge.to, kind: edge.kind, weight: edge.weight, chunkIds: edge.chunkIds };
}
