import { z } from "zod";
import { graphOf } from "../spec/graph.js";
import { defineTool } from "./define-tool.js";
import { edgeRow, noGraph } from "./graph-common.js";

export const findPathInput = z.object({
  from: z.string().trim().min(1, "from must not be empty").describe("The entity to start from, as written."),
  to: z.string().trim().min(1, "to must not be empty").describe("The entity to reach, as written."),
  maxDepth: z.number().int().min(1).max(5).default(5).describe("Most hops, 1..5."),
});

/** `find_path`: the shortest chain of entities linking two; rows are its steps, passages the evidence for each. */
export const findPathTool = defineTool({
  name: "find_path",
  description:
    "Find how two entities are connected: the shortest chain of entities (up to 5 hops) where each link is shown by a passage mentioning both, e.g. endpoint -> service -> team.",
  inputSchema: findPathInput,
  parallelSafe: true,
  cacheable: true,
  reads: "passages",
  describeCall: (args) => `a path from '${args.from}' to '${args.to}'`,
  async execute(args, ctx) {
    const graph = graphOf(ctx.store);
    if (!graph) return noGraph("find_path");
    const path = await graph.path({ from: args.from, to: args.to, maxDepth: args.maxDepth, principal: ctx.principal });
    if (!path) {
      return {
        status: "no_results",
        passages: [],
        rows: [],
        hint: `no link between '${args.from}' and '${args.to}' within ${args.maxDepth} hops; check both with search_entity, or use traverse_graph from one of them`,
      };
    }
    const rows = path.edges.map((edge, step) => ({
      step: step + 1,
      ...edgeRow(edge),
      fromText: path.entities[step]?.text,
      toText: path.entities[step + 1]?.text,
    }));
    return { status: "ok", passages: path.passages, rows };
  },
});
