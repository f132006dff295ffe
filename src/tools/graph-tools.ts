import type { AnyTool } from "./define-tool.js";
import { findPathTool } from "./find-path.js";
import { searchEntityTool } from "./search-entity.js";
import { traverseGraphTool } from "./traverse-graph.js";

/** The entity-graph tools, for `createToolset({ tools })` when the store has a graph (`graphOf(store)`). */
export const graphTools: AnyTool[] = [searchEntityTool, traverseGraphTool, findPathTool] as AnyTool[];
