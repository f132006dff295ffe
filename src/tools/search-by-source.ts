import { z } from "zod";
import { defineTool } from "./define-tool.js";
import { passageResult } from "./passage-result.js";
import { DEFAULT_K, MAX_K, querySchema } from "./search.js";

export const searchBySourceInput = z.object({
  docId: z
    .string()
    .trim()
    .min(1, "docId must not be empty")
    .describe("The document id, as a passage's docId gives it."),
  source: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe("The document's source, as the passage gives it; needed only when two sources hold the same docId."),
  query: querySchema().describe("Words to search for inside that document."),
  k: z.number().int().min(1).max(MAX_K).default(DEFAULT_K).describe(`How many passages, 1..${MAX_K}.`),
});

/** `search_by_source`: search inside one document (found earlier by `search`). */
export const searchBySourceTool = defineTool({
  name: "search_by_source",
  description: "Search inside one document for passages relevant to a query; use a docId from an earlier result.",
  inputSchema: searchBySourceInput,
  parallelSafe: true,
  cacheable: true,
  reads: "passages",
  describeCall: (args) => `${args.docId} for '${args.query}'`,
  async execute(args, ctx) {
    // Without a source, an id two readable sources hold means the one whose source sorts first (StoreV1 rule).
    const doc = await ctx.store.getDocument(args.docId, ctx.principal, { source: args.source });
    const readable = ctx.sources.map((s) => s.name);
    if (doc === undefined || !readable.includes(doc.source)) {
      // Missing and unreadable look the same, so a document's existence does not leak.
      return {
        status: "denied",
        hint: `no document '${args.docId}'${args.source ? ` in ${args.source}` : ""} that you may read; use search to find document ids`,
      };
    }
    const passages = await ctx.retriever.search(args.query, {
      principal: ctx.principal,
      sources: [doc.source],
      docId: doc.id,
      k: args.k,
      signal: ctx.signal,
    });
    return passageResult({
      passages,
      lowConfidence: ctx.lowConfidence,
      hint: `nothing good for '${args.query}' in '${doc.title || doc.id}'; try other words or search all sources`,
    });
  },
});
