import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT } from "../cli/run-cli.js";
import { startTestServer, type TestServer } from "./harness.js";
import { httpMcpClient } from "./mcp-client.js";

type Structured = Record<string, unknown>;

/** `ferret mcp` as a real child process, with the MCP SDK's own stdio client. */
async function stdioMcpClient(args: string[], cwd = ROOT): Promise<Client> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("FERRET_")) env[k] = v;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", ...args],
    cwd,
    env,
    stderr: "pipe",
  });
  const client = new Client({ name: "ferret-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** Lists and calls every tool as acme's HR writer (who reads public_docs, hr_docs and the tickets table). */
async function exerciseEveryTool(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(["ask", "list_sources", "run_sql", "search"]);
  for (const tool of tools) {
    expect(tool.description?.length, tool.name).toBeGreaterThan(40);
    expect(tool.inputSchema.type).toBe("object");
  }
  const search = tools.find((t) => t.name === "search")!;
  const corpus = (search.inputSchema.properties as Record<string, { enum?: string[] }>).corpus;
  expect(corpus?.enum?.slice().sort()).toEqual(["hr_docs", "public_docs", "tickets"]);

  const found = await client.callTool({ name: "search", arguments: { query: "人事暗号", corpus: "hr_docs" } });
  expect(found.isError).toBe(false);
  expect(JSON.stringify(found.content)).toContain("雪豹湾");

  const sources = await client.callTool({ name: "list_sources", arguments: {} });
  expect(sources.isError).toBe(false);
  const listed = JSON.stringify(sources.structuredContent);
  for (const name of ["public_docs", "hr_docs", "tickets"]) expect(listed).toContain(name);
  expect(listed).not.toContain("globex");

  const rows = await client.callTool({ name: "run_sql", arguments: { sql: "SELECT count(*) AS n FROM tickets" } });
  expect(rows.isError).toBe(false);
  expect(JSON.stringify(rows.structuredContent)).toMatch(/"n":\s*\d+/);
  const write = await client.callTool({ name: "run_sql", arguments: { sql: "DELETE FROM tickets" } });
  expect(write.isError).toBe(true);

  const asked = await client.callTool({
    name: "ask",
    arguments: { question: "What is the launch checklist code word?" },
  });
  const answer = asked.structuredContent as Structured & { citations: { quote: string; source: string }[] };
  expect(answer.status).toBe("answered");
  expect(answer.text).toContain("quasarpine");
  expect(typeof answer.stopReason).toBe("string");
  expect(answer.citations[0]).toMatchObject({ source: "public_docs" });
  expect(answer.citations[0]?.quote).toContain("quasarpine");

  const resources = await client.listResources();
  const uris = resources.resources.map((r) => r.uri);
  expect(uris).toContain("ferret://source/hr_docs/zh%2Fbonus.md");
  const read = await client.readResource({ uri: "ferret://source/hr_docs/zh%2Fbonus.md" });
  expect(JSON.stringify(read.contents)).toContain("雪豹湾");
}

describe("MCP: the SDK's own client lists and calls every tool", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it("over Streamable HTTP at /mcp with an API key", async () => {
    const client = await httpMcpClient(t.url, t.keys["acme-hr"]!);
    try {
      await exerciseEveryTool(client);
    } finally {
      await client.close();
    }
  });

  it("over stdio with `ferret mcp --as`", async () => {
    const client = await stdioMcpClient(["--db", t.db, "--as", "acme:hana:hr,writer"]);
    try {
      await exerciseEveryTool(client);
    } finally {
      await client.close();
    }
  });

  it("over stdio with the config file's mcp.as, which no tool argument widens", async () => {
    const config = join(t.dir, "ferret.config.json");
    writeFileSync(config, JSON.stringify({ mcp: { as: "globex:gil:" } }));
    const client = await stdioMcpClient(["--db", t.db, "--config", config]);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(["ask", "list_sources", "search"]);
      const denied = await client.callTool({ name: "search", arguments: { query: "code word", corpus: "hr_docs" } });
      expect(denied.isError).toBe(true);
      const hits = await client.callTool({ name: "search", arguments: { query: "code word" } });
      const text = JSON.stringify(hits);
      expect(text).toContain("wombatcrest");
      expect(text).not.toMatch(/quasarpine|marmotfjord|pelicanvault/);
    } finally {
      await client.close();
    }
  });
});
