import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { AgentMode, Answer, Ferret, Principal, ToolResult } from "../index.js";
import { STOP_REASONS } from "../index.js";
import { citationSchema } from "../spec/citation-schema.js";

/** The library tools an MCP client gets (those of them the principal's sources call for). */
export const MCP_LIBRARY_TOOLS = ["search", "list_sources", "run_sql"] as const;

/** How the `ask` tool runs a question: the server passes its own (budgets, spend caps, metrics). */
export type McpAsk = (question: string, options: { signal: AbortSignal; mode?: AgentMode }) => Promise<Answer>;

export interface CreateMcpServerOptions {
  ferret: Ferret;
  /** Who every call acts as: from the API key (HTTP) or `--as` (stdio); nothing a client sends changes it. */
  principal: Principal;
  ask?: McpAsk;
  version?: string;
}

const MAX_LISTED_DOCUMENTS = 500;

const ASK_OUTPUT = {
  status: z.enum(["answered", "partial", "refused"]),
  text: z.string(),
  stopReason: z.enum(STOP_REASONS),
  reason: z.string().optional(),
  citations: z.array(citationSchema),
  runId: z.string(),
};

const docUri = (source: string, docId: string) =>
  `ferret://source/${encodeURIComponent(source)}/${encodeURIComponent(docId)}`;

const decode = (value: string | string[] | undefined): string => {
  const text = Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

function toolResult(result: ToolResult) {
  return {
    content: [{ type: "text" as const, text: JSON.stringify(result) }],
    structuredContent: result as unknown as Record<string, unknown>,
    isError: result.status === "error" || result.status === "denied",
  };
}

/**
 * An MCP server for one principal: the library's own `search` (corpus an enum of the readable sources),
 * `list_sources` and, where table sources exist, `run_sql`, with the descriptions the agent sees; `ask`
 * (answer, citations and stop reason as structured content); and resources for readable sources
 * (`ferret://source/{name}`) and their documents (`ferret://source/{name}/{docId}`, the id URL-encoded).
 */
export async function createMcpServer(options: CreateMcpServerOptions): Promise<McpServer> {
  const { ferret, principal } = options;
  const toolbox = await ferret.toolbox({ principal });
  const server = new McpServer({ name: "ferret", version: options.version ?? "0.1.0" });

  for (const tool of toolbox.tools) {
    if (!(MCP_LIBRARY_TOOLS as readonly string[]).includes(tool.name)) continue;
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: tool.inputSchema as z.ZodObject,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async (args: Record<string, unknown>, extra) =>
        toolResult(await toolbox.call(tool.name, args, { signal: extra.signal })),
    );
  }

  const ask: McpAsk = options.ask ?? ((question, o) => ferret.ask(question, { principal, ...o }));
  server.registerTool(
    "ask",
    {
      description:
        "Answer a question from the knowledge sources: an agent searches them, checks the evidence and answers " +
        "with verified citations, or refuses and says what was searched and what was missing. Returns the " +
        "answer text, its citations (passage id, document id, source, quote, and where known a locator or a web page link) and the stop reason.",
      inputSchema: z.object({
        question: z.string().min(1).describe("The question, in any language."),
        mode: z.enum(["auto", "rag", "agentic"]).optional().describe("auto (default), rag (one search) or agentic."),
      }),
      outputSchema: z.object(ASK_OUTPUT),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args, extra) => {
      const answer = await ask(args.question, { signal: extra.signal, ...(args.mode ? { mode: args.mode } : {}) });
      const structured = {
        status: answer.status,
        text: answer.text,
        stopReason: answer.stopReason,
        ...(answer.reason ? { reason: answer.reason } : {}),
        // The schema keeps the declared fields alone, url and locator included.
        citations: answer.citations.map((c) => citationSchema.parse(c)),
        runId: answer.runId,
      };
      return { content: [{ type: "text" as const, text: JSON.stringify(structured) }], structuredContent: structured };
    },
  );

  server.registerResource(
    "source",
    new ResourceTemplate("ferret://source/{name}", {
      list: async () => ({
        resources: toolbox.sources.map((s) => ({
          uri: `ferret://source/${encodeURIComponent(s.name)}`,
          name: s.name,
          description: s.description,
          mimeType: "application/json",
        })),
      }),
    }),
    { description: "A knowledge source you may read: kind, description, counts and its first documents." },
    async (uri, variables) => {
      const name = decode(variables.name);
      const source = (await ferret.sources({ principal })).find((s) => s.name === name);
      const page = source ? await ferret.documents(name, { principal, limit: 200 }) : undefined;
      if (!source || !page) throw new Error(`no readable source "${name}"`);
      const { tenant: _t, path: _p, ...shown } = source;
      const body = { ...shown, documents: page.documents.map((d) => ({ ...d, uri: docUri(name, d.id) })) };
      return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(body) }] };
    },
  );

  server.registerResource(
    "document",
    new ResourceTemplate("ferret://source/{name}/{docId}", {
      list: async () => {
        const resources: { uri: string; name: string; mimeType: string }[] = [];
        for (const source of toolbox.sources) {
          const page = await ferret.documents(source.name, { principal, limit: 200 });
          for (const d of page?.documents ?? []) {
            if (resources.length >= MAX_LISTED_DOCUMENTS) break;
            resources.push({ uri: docUri(source.name, d.id), name: d.title || d.id, mimeType: "text/plain" });
          }
        }
        return { resources };
      },
    }),
    { description: "A document you may read, as text (its id URL-encoded in the URI)." },
    async (uri, variables) => {
      const name = decode(variables.name);
      const docId = decode(variables.docId);
      const found = await ferret.document(docId, { source: name, principal });
      if (!found) throw new Error(`no readable document "${docId}" in source "${name}"`);
      return { contents: [{ uri: uri.href, mimeType: "text/plain", text: found.document.text }] };
    },
  );

  return server;
}
