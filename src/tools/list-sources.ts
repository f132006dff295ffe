import { z } from "zod";
import { defineTool } from "./define-tool.js";

/** `list_sources`: the sources the principal may read, with what they hold. */
export const listSourcesTool = defineTool({
  name: "list_sources",
  description: "List the knowledge sources you can search, with their descriptions and sizes.",
  inputSchema: z.object({}),
  parallelSafe: true,
  reads: "none",
  describeCall: () => "the list of sources",
  async execute(_args, ctx) {
    if (ctx.sources.length === 0) return { status: "no_results", rows: [], hint: "no source is readable by you" };
    const rows = ctx.sources.map((s) => ({
      name: s.name,
      kind: s.kind,
      description: s.description,
      documents: s.documents,
      chunks: s.chunks,
      ...(s.tables && s.tables.length > 0
        ? {
            tables: s.tables
              .map((t) => `${t.name} (${t.columns.map((c) => `${c.name} ${c.type}`).join(", ")})`)
              .join("; "),
          }
        : {}),
    }));
    return { status: "ok", rows };
  },
});
