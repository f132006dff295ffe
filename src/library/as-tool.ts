/** ferret as AI SDK tools, for callers who put it inside their own `generateText` or agent. */
import { type Tool, tool } from "ai";
import { z } from "zod";
import type { Answer } from "../spec/answer.js";
import type { Passage } from "../spec/passage.js";
import type { Principal } from "../spec/principal.js";
import type { ToolResult } from "../spec/tool-result.js";
import type { AnyTool } from "../tools/define-tool.js";

/** What the search tool returns to the calling model: passages without scores' internals, ids to cite. */
export interface SearchToolOutput {
  passages: Pick<Passage, "id" | "docId" | "source" | "title" | "text" | "score">[];
}

/** What the ask tool returns: ferret's verified answer, its citations and why it stopped. */
export type AskToolOutput = Pick<Answer, "status" | "text" | "citations" | "stopReason" | "runId"> & {
  reason?: string;
};

export interface AsToolOptions {
  /**
   * `search` (default): the calling model searches and reads passages itself. `ask`: ferret runs its own
   * bounded agent and returns a cited answer (or a refusal).
   */
  kind?: "search" | "ask";
  /** Who the calls act as; resolved through the same rule as every other call that names nobody. */
  principal?: Principal;
  description?: string;
}

interface FerretLike {
  search(query: string, options: { principal?: Principal; sources?: string[]; k?: number }): Promise<Passage[]>;
  ask(question: string, options: { principal?: Principal; signal?: AbortSignal }): Promise<Answer>;
}

const searchInput = z.object({
  query: z.string().min(1).describe("What to look for, in the words the documents would use."),
  sources: z.array(z.string()).optional().describe("Only these sources (by name); all readable sources if absent."),
  k: z.number().int().min(1).max(20).optional().describe("How many passages, 1..20 (default 8)."),
});

const askInput = z.object({
  question: z.string().min(1).describe("The question, complete on its own."),
});

/** The search or ask tool over a ferret knowledge base (see `AsToolOptions`). */
export function ferretTool(ferret: FerretLike, options: AsToolOptions = {}): Tool {
  const principal = options.principal;
  if ((options.kind ?? "search") === "ask") {
    return tool({
      description:
        options.description ??
        "Answers a question from the knowledge base with citations of the passages it used, or refuses when the sources do not say.",
      inputSchema: askInput,
      execute: async ({ question }, { abortSignal }): Promise<AskToolOutput> => {
        const answer = await ferret.ask(question, { principal, signal: abortSignal });
        const out: AskToolOutput = {
          status: answer.status,
          text: answer.text,
          citations: answer.citations,
          stopReason: answer.stopReason,
          runId: answer.runId,
        };
        if (answer.reason) out.reason = answer.reason;
        return out;
      },
    });
  }
  return tool({
    description:
      options.description ??
      "Searches the knowledge base and returns the best matching passages with their source and id.",
    inputSchema: searchInput,
    execute: async ({ query, sources, k }): Promise<SearchToolOutput> => {
      const passages = await ferret.search(query, { principal, sources, k: k ?? 8 });
      return {
        passages: passages.map((p) => {
          const out: SearchToolOutput["passages"][number] = {
            id: p.id,
            docId: p.docId,
            source: p.source,
            text: p.text,
            score: p.score,
          };
          if (p.title !== undefined) out.title = p.title;
          return out;
        }),
      };
    },
  });
}

/** ferret's individual tools (`search`, `list_sources`, graph and table tools where present) as AI SDK tools. */
export function toolsOf(toolbox: {
  tools: readonly AnyTool[];
  call(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<ToolResult>;
}): Record<string, Tool> {
  const out: Record<string, Tool> = {};
  for (const t of toolbox.tools) {
    out[t.name] = tool({
      description: t.description,
      inputSchema: t.inputSchema as z.ZodType<Record<string, unknown>>,
      execute: (args: Record<string, unknown>, { abortSignal }) =>
        toolbox.call(t.name, args, abortSignal ? { signal: abortSignal } : {}),
    });
  }
  return out;
}
