import { z } from "zod";
import { DEFAULT_INPUT_LIMITS, ISO_DATE } from "../safety/input-limits.js";
import { defineTool, schemaPerArguments } from "./define-tool.js";
import { passageResult } from "./passage-result.js";

export const MAX_K = 20;
export const DEFAULT_K = 5;

/** A corpus argument: one of the configured source names; omitted means every source the principal can read. */
function corpusSchema(sources: readonly string[]) {
  const description = "The source to search; omit to search every source you can read.";
  const [first, ...rest] = sources;
  if (first === undefined) return z.string().describe(description).optional();
  return z
    .enum([first, ...rest])
    .describe(description)
    .optional();
}

/** A query argument: not empty, and not longer than the cap (a model that writes a page gets told so). */
export function querySchema(maxChars: number = DEFAULT_INPUT_LIMITS.maxQueryChars) {
  return z
    .string()
    .max(maxChars, `query must be at most ${maxChars} characters; search for a few key words instead`)
    .trim()
    .min(1, "query must not be empty");
}

export const searchInputSchema = schemaPerArguments((sources: readonly string[], maxQueryChars?: number) =>
  z.object({
    corpus: corpusSchema(sources),
    query: querySchema(maxQueryChars).describe("Words to search for."),
    k: z.number().int().min(1).max(MAX_K).default(DEFAULT_K).describe(`How many passages, 1..${MAX_K}.`),
    since: z
      .string()
      .regex(ISO_DATE, "since must be an ISO date such as 2024-01-31")
      .optional()
      .describe("Only documents updated on or after this ISO date."),
  }),
);

/** `search`: keyword/vector search over one configured source, or all of them. */
export function createSearchTool(options: { sources: readonly string[]; maxQueryChars?: number }) {
  const names = [...options.sources];
  return defineTool({
    name: "search",
    description:
      "Search the knowledge sources for passages relevant to a query. " +
      (names.length > 0 ? `Sources: ${names.join(", ")}.` : "No sources are configured."),
    inputSchema: searchInputSchema(names, options.maxQueryChars),
    parallelSafe: true,
    cacheable: true,
    reads: "passages",
    describeCall: (args) => `${args.corpus ?? "all sources"} for '${args.query}'`,
    async execute(args, ctx) {
      const readable = ctx.sources.map((s) => s.name);
      if (args.corpus !== undefined && !readable.includes(args.corpus)) {
        return {
          status: "denied",
          hint: `source '${args.corpus}' is not readable by you; readable: ${list(readable)}`,
        };
      }
      if (readable.length === 0) return { status: "no_results", passages: [], hint: "no source is readable by you" };
      const sources = args.corpus !== undefined ? [args.corpus] : readable;
      const passages = await ctx.retriever.search(args.query, {
        principal: ctx.principal,
        sources,
        k: args.k,
        since: args.since,
        signal: ctx.signal,
      });
      const others = readable.filter((name) => name !== args.corpus);
      const where = args.corpus ?? "any source";
      const hint =
        args.corpus !== undefined && others.length > 0
          ? `nothing good for '${args.query}' in ${where}; try other words or another corpus: ${list(others)}`
          : `nothing good for '${args.query}' in ${where}; try other words${args.since ? " or drop `since`" : ""}`;
      return passageResult({ passages, lowConfidence: ctx.lowConfidence, hint });
    },
  });
}

function list(names: readonly string[]): string {
  return names.length > 0 ? names.join(", ") : "(none)";
}
