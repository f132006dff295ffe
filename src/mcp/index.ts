export { type CreateMcpServerOptions, createMcpServer, MCP_LIBRARY_TOOLS, type McpAsk } from "./server.js";
export { serveMcpStdio } from "./stdio.js";
