import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** The MCP SDK's own client over Streamable HTTP at `/mcp`, with an API key. */
export async function httpMcpClient(url: string, key: string | undefined): Promise<Client> {
  const client = new Client({ name: "ferret-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} },
  });
  await client.connect(transport);
  return client;
}
