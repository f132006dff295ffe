import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { ERRORS, json, SECURITY } from "./common.js";

const MeSchema = z
  .object({
    tenant: z.string(),
    user: z.string(),
    roles: z.array(z.string()),
    keyId: z.string().optional(),
    canWrite: z.boolean(),
  })
  .openapi("Me");

const meRoute = createRoute({
  method: "get",
  path: "/v1/me",
  summary: "The principal the presented key or token maps to, and whether it may upload and delete",
  security: SECURITY,
  responses: { 200: json(MeSchema, "Who is asking"), ...ERRORS },
});

/** `GET /v1/me`: what a client shows after sign-in (and how it checks a key). */
export function meRoutes(app: OpenAPIHono<ServerEnv>, deps: ServerDeps): void {
  app.openapi(meRoute, (c) => {
    const { principal, keyId } = c.get("caller");
    const canWrite = principal.roles.includes("*") || principal.roles.some((r) => deps.config.writeRoles.includes(r));
    return c.json(
      {
        tenant: principal.tenant,
        user: principal.user,
        roles: [...principal.roles],
        ...(keyId ? { keyId } : {}),
        canWrite,
      },
      200,
    );
  });
}
