export {
  type AnyTool,
  DEFAULT_LOW_CONFIDENCE,
  defineTool,
  describeTool,
  type Tool,
  type ToolContext,
} from "./define-tool.js";
export { errorResult, ToolTimeoutError } from "./error-result.js";
export { DEFAULT_TOOL_TIMEOUT_MS, executeToolCall, renderIssues } from "./execute-tool-call.js";
export { listSourcesTool } from "./list-sources.js";
export { bestScore, passageResult } from "./passage-result.js";
export { createSearchTool, DEFAULT_K, MAX_K, searchInputSchema } from "./search.js";
export { searchBySourceTool } from "./search-by-source.js";
export { type CreateToolsetOptions, createToolset, type Toolset } from "./toolset.js";
