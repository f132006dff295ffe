import type { ToolDescriptor } from "../spec/engine.js";
import { InvalidInputError } from "../spec/errors.js";
import type { SourceInfo } from "../spec/source.js";
import { type AnyTool, describeTool } from "./define-tool.js";
import { listSourcesTool } from "./list-sources.js";
import { createLookupTool } from "./lookup.js";
import { createSearchTool } from "./search.js";
import { searchBySourceTool } from "./search-by-source.js";

/** The tools of one run, open to registration (run_sql, search_entity, ... are added by their modules). */
export interface Toolset {
  names(): string[];
  get(name: string): AnyTool | undefined;
  descriptors(): ToolDescriptor[];
  /** Adds a tool; a second tool with the same name is a programmer error. Returns the toolset. */
  register(tool: AnyTool): Toolset;
}

export interface CreateToolsetOptions {
  /** The sources the principal may read: their names make the `corpus` enum of `search`. */
  sources: readonly (string | Pick<SourceInfo, "name">)[];
  /** More tools to register after the built-in ones. */
  tools?: readonly AnyTool[];
  /** Longest `query` the search tool accepts (default 1,000 characters). */
  maxQueryChars?: number;
  /** Leave out built-in tools by name (e.g. `["search_by_source"]`). */
  exclude?: readonly string[];
}

/** The built-in retrieval tools (`search`, `search_by_source`, `lookup`, `list_sources`) plus any given. */
export function createToolset(options: CreateToolsetOptions): Toolset {
  const names = options.sources.map((s) => (typeof s === "string" ? s : s.name));
  const tools = new Map<string, AnyTool>();
  const toolset: Toolset = {
    names: () => [...tools.keys()],
    get: (name) => tools.get(name),
    descriptors: () => [...tools.values()].map(describeTool),
    register(tool) {
      if (tools.has(tool.name)) {
        throw new InvalidInputError(`a tool named '${tool.name}' is already registered`, { field: "tools" });
      }
      tools.set(tool.name, tool);
      return toolset;
    },
  };
  const builtIn = [
    createSearchTool({ sources: names, maxQueryChars: options.maxQueryChars }),
    searchBySourceTool,
    createLookupTool({ sources: names }),
    listSourcesTool,
  ] as AnyTool[];
  for (const tool of builtIn) if (!options.exclude?.includes(tool.name)) toolset.register(tool);
  for (const tool of options.tools ?? []) toolset.register(tool);
  return toolset;
}
