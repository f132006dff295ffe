import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Ferret, Principal } from "../index.js";
import { createMcpServer } from "./server.js";

/** Serves MCP on standard input and output for one principal until the client closes the stream. */
export async function serveMcpStdio(options: { ferret: Ferret; principal: Principal }): Promise<void> {
  const server = await createMcpServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
