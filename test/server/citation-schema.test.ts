import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Answer, type Citation, createFerret, type Ferret } from "../../src/index.js";
import { createMcpServer } from "../../src/mcp/server.js";
import { createServerApp } from "../../src/server/app.js";
import { resolveServeConfig } from "../../src/server/config.js";

type JsonSchema = { properties?: Record<string, { type?: string; description?: string }>; required?: string[] };

const CITED: Citation = {
  n: 1,
  passageId: "almanac.pdf::4",
  docId: "almanac.pdf",
  source: "field_notes",
  quote: "The heron nests by the mill pond.",
  locator: "page 7",
  url: "https://example.test/almanac#:~:text=heron",
};

describe("the citation shape the HTTP API and the MCP ask tool share", () => {
  let dir: string;
  let ferret: Ferret;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "ferret-citation-schema-"));
    ferret = await createFerret({ db: join(dir, "ferret.db") });
  });
  afterAll(async () => {
    await ferret.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function mcpClient(): Promise<Client> {
    const ask = async () =>
      ({
        status: "answered",
        text: "By the mill pond [1].",
        stopReason: "answered",
        citations: [CITED],
        runId: "r1",
      }) as unknown as Answer;
    const server = await createMcpServer({ ferret, principal: { tenant: "default", user: "u", roles: ["*"] }, ask });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "ferret-test", version: "1.0.0" });
    await client.connect(clientSide);
    return client;
  }

  it("the OpenAPI document and the ask tool's output schema describe the same fields, each with a description", async () => {
    const config = resolveServeConfig({ flags: { host: "127.0.0.1", port: 0 } });
    const { app } = createServerApp({ ferret, config, logger: pino({ level: "silent" }), uiDir: false });
    const doc = (await (await app.request("/openapi.json")).json()) as {
      components: { schemas: Record<string, JsonSchema> };
    };
    const openapi = doc.components.schemas.Citation;
    expect(Object.keys(openapi?.properties ?? {})).toEqual([
      "n",
      "passageId",
      "docId",
      "source",
      "quote",
      "url",
      "locator",
    ]);
    expect(openapi?.required).toEqual(["n", "passageId", "docId", "source", "quote"]);
    expect(openapi?.properties?.locator?.description).toContain("page 3");
    expect(openapi?.properties?.url?.description).toContain("#:~:text=");

    const client = await mcpClient();
    const { tools } = await client.listTools();
    const output = tools.find((t) => t.name === "ask")?.outputSchema as unknown as {
      properties: { citations: { items: JsonSchema } };
    };
    const mcp = output.properties.citations.items;
    const described = (s: JsonSchema | undefined) =>
      Object.entries(s?.properties ?? {}).map(([name, p]) => [name, p.type, p.description]);
    expect(described(mcp)).toEqual(described(openapi));
    expect(mcp.required).toEqual(openapi?.required);
    await client.close();
  });

  it("the ask tool's structured answer keeps a citation's locator and url", async () => {
    const client = await mcpClient();
    const result = await client.callTool({ name: "ask", arguments: { question: "Where does the heron nest?" } });
    expect((result.structuredContent as { citations: Citation[] }).citations).toEqual([CITED]);
    await client.close();
  });
});
