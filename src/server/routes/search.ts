import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { PassageSchema, SearchBodySchema } from "../schemas.js";
import { ERRORS, json, SECURITY } from "./common.js";

const searchRoute = createRoute({
  method: "post",
  path: "/v1/search",
  summary: "Search passages the caller may read (BM25, vector or hybrid)",
  security: SECURITY,
  request: { body: { content: { "application/json": { schema: SearchBodySchema } }, required: true } },
  responses: { 200: json(z.object({ passages: z.array(PassageSchema) }), "The passages, best first"), ...ERRORS },
});

export function searchRoutes(app: OpenAPIHono<ServerEnv>, deps: ServerDeps): void {
  app.openapi(searchRoute, async (c) => {
    const { query, ...options } = c.req.valid("json");
    const principal = c.get("caller").principal;
    // The request's signal only matters while the search waits for a slot; making it costs more than a search.
    const passages = await deps.limiter.run(
      () => deps.ferret.search(query, { ...options, principal }),
      () => c.req.raw.signal,
    );
    return c.json({ passages }, 200);
  });
}
