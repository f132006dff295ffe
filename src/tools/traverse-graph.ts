import { z } from "zod";
import { graphOf } from "../spec/graph.js";
import { defineTool } from "./define-tool.js";
import { edgeRow, noGraph } from "./graph-common.js";

export const traverseGraphInput = z.object({
  entity: z.string().trim().min(1, "entity must not be empty").describe("The entity to start from, as written."),
  depth: z.number().int().min(1).max(3).default(1).describe("Hops to walk, 1..3."),
  limit: z.number().int().min(1).max(20).default(10).describe("Strongest neighbours kept per entity, 1..20."),
});

/** `traverse_graph`: the entities related to one, up to 3 hops; rows are edges, passages the chunks showing them. */
export const traverseGraphTool = defineTool({
  name: "traverse_graph",
  description:
    "Walk the entity graph from an entity: what it is mentioned with (co-occurs) or defined by (a document titled by it), up to 3 hops. Each edge comes with the passages that show it.",
  inputSchema: traverseGraphInput,
  parallelSafe: true,
  cacheable: true,
  reads: "passages",
  describeCall: (args) => `the graph around '${args.entity}' (depth ${args.depth})`,
  async execute(args, ctx) {
    const graph = graphOf(ctx.store);
    if (!graph) return noGraph("traverse_graph");
    const found = await graph.neighbours({
      entity: args.entity,
      depth: args.depth,
      limit: args.limit,
      principal: ctx.principal,
    });
    if (!found) {
      return {
        status: "no_results",
        passages: [],
        rows: [],
        hint: `no entity '${args.entity}'; look it up with search_entity first`,
      };
    }
    if (found.edges.length === 0) {
      return {
        status: "no_results",
        passages: [],
        rows: [],
        hint: `'${found.root.text}' is mentioned with nothing else; try search for it`,
      };
    }
    const entities = new Map(found.entities.map((entity) => [entity.key, entity]));
    const rows = found.edges.map((edge) => {
      const to = entities.get(edge.to);
      return { ...edgeRow(edge), depth: edge.depth, toText: to?.text ?? edge.to, toType: to?.type };
    });
    return { status: "ok", passages: found.passages, rows };
  },
});
