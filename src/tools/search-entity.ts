import { z } from "zod";
import { graphOf } from "../spec/graph.js";
import { defineTool } from "./define-tool.js";
import { entityTypeSchema, noGraph } from "./graph-common.js";

export const MAX_ENTITIES = 20;

export const searchEntityInput = z.object({
  value: z
    .string()
    .trim()
    .min(1, "value must not be empty")
    .describe("The entity as written: a ticket id, endpoint, IP, e-mail, service, team or person name, title."),
  type: entityTypeSchema.optional(),
  k: z.number().int().min(1).max(MAX_ENTITIES).default(5).describe(`How many entities, 1..${MAX_ENTITIES}.`),
  evidence: z
    .number()
    .int()
    .min(1)
    .max(10)
    .optional()
    .describe("Passages mentioning each entity, 1..10 (default: the store's, a few)."),
});

/** `search_entity`: look an entity up in the graph; rows are entities, passages the chunks that mention them. */
export const searchEntityTool = defineTool({
  name: "search_entity",
  description:
    "Find an entity (ticket id, endpoint, IP, e-mail, service, team, person, document title) and the passages that mention it. Exact matches come first, then partial ones.",
  inputSchema: searchEntityInput,
  parallelSafe: true,
  cacheable: true,
  reads: "passages",
  describeCall: (args) => `the entity '${args.value}'`,
  async execute(args, ctx) {
    const graph = graphOf(ctx.store);
    if (!graph) return noGraph("search_entity");
    const found = await graph.findEntities({
      value: args.value,
      principal: ctx.principal,
      k: args.k,
      ...(args.type ? { type: args.type } : {}),
      ...(args.evidence ? { evidence: args.evidence } : {}),
    });
    if (found.entities.length === 0) {
      return {
        status: "no_results",
        passages: [],
        rows: [],
        hint: `no entity like '${args.value}'${args.type ? ` of type ${args.type}` : ""}; try another spelling, drop the type, or use search`,
      };
    }
    return { status: "ok", passages: found.passages, rows: found.entities.map((entity) => ({ ...entity })) };
  },
});
