import type { OpenAPIHono } from "@hono/zod-openapi";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createMcpServer } from "../../mcp/server.js";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";

/**
 * MCP over Streamable HTTP at `/mcp`, stateless: each request gets a server for the caller's principal (from
 * the API key, like every other route), so no session can carry one principal's rights to another request.
 */
export function mcpRoutes(app: OpenAPIHono<ServerEnv>, deps: ServerDeps): void {
  app.all("/mcp", async (c) => {
    const caller = c.get("caller");
    const server = await createMcpServer({
      ferret: deps.ferret,
      principal: caller.principal,
      ask: (question, options) =>
        deps.limiter.run(
          () => deps.runs.ask(caller, { question, ...(options.mode ? { mode: options.mode } : {}) }, options),
          options.signal,
        ),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: deps.config.maxBodyBytes,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      // JSON responses are complete when handleRequest returns; nothing of this server outlives the request.
      await server.close();
    }
  });
}
