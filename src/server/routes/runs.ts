import { randomUUID } from "node:crypto";
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { NotFoundError } from "../errors.js";
import { DecisionSchema, JobSchema, RunSummarySchema, SESSION_ID, SessionSchema } from "../schemas.js";
import { ERRORS, json, NOT_FOUND, SECURITY } from "./common.js";
import { publicJob } from "./sources.js";

const IdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(256)
    .openapi({ param: { name: "id", in: "path" } }),
});

const listRunsRoute = createRoute({
  method: "get",
  path: "/v1/runs",
  summary: "The caller's runs, newest first (an owner key, holding `*`, sees every user of its tenant)",
  security: SECURITY,
  request: {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(200).optional(),
      before: z.string().max(64).optional(),
      status: z.enum(["answered", "partial", "refused"]).optional(),
      stopReason: z.string().max(64).optional(),
      user: z.string().max(128).optional(),
    }),
  },
  responses: { 200: json(z.object({ runs: z.array(RunSummarySchema) }), "Runs"), ...ERRORS },
});

const getRunRoute = createRoute({
  method: "get",
  path: "/v1/runs/{id}",
  summary: "A run's trace, re-checked against the caller's current rights (unreadable passages redacted)",
  security: SECURITY,
  request: { params: IdParam },
  responses: {
    200: json(z.object({ runId: z.string(), events: z.array(z.unknown()) }).passthrough(), "The run record"),
    ...ERRORS,
    ...NOT_FOUND,
  },
});

const decisionRoute = createRoute({
  method: "post",
  path: "/v1/runs/{id}/decision",
  summary: "Answer a paused run's checkpoint: continue, answer now, rephrase (with a query) or stop",
  security: SECURITY,
  request: { params: IdParam, body: { content: { "application/json": { schema: DecisionSchema } }, required: true } },
  responses: { 202: json(z.object({ accepted: z.literal(true) }), "The run goes on"), ...ERRORS, ...NOT_FOUND },
});

const jobRoute = createRoute({
  method: "get",
  path: "/v1/jobs/{id}",
  summary: "An upload job: progress, then what was added and each failed or skipped file with its reason",
  security: SECURITY,
  request: { params: IdParam },
  responses: { 200: json(JobSchema, "The job"), ...ERRORS, ...NOT_FOUND },
});

const newSessionRoute = createRoute({
  method: "post",
  path: "/v1/sessions",
  summary: "A new session id: ask with it (`sessionId`) and follow-ups are read against its history",
  security: SECURITY,
  responses: { 201: json(z.object({ id: z.string() }), "The session id"), ...ERRORS },
});

const getSessionRoute = createRoute({
  method: "get",
  path: "/v1/sessions/{id}",
  summary: "A session's turns (empty for one with none yet)",
  security: SECURITY,
  request: { params: z.object({ id: SESSION_ID.openapi({ param: { name: "id", in: "path" } }) }) },
  responses: { 200: json(SessionSchema, "The session"), ...ERRORS },
});

export function runRoutes(app: OpenAPIHono<ServerEnv>, deps: ServerDeps): void {
  const { ferret } = deps;

  app.openapi(listRunsRoute, async (c) => {
    const query = c.req.valid("query");
    const runs = await ferret.runs({ principal: c.get("caller").principal, ...query });
    return c.json({ runs: runs.map(({ tenant: _t, ...rest }) => rest) }, 200);
  });

  app.openapi(getRunRoute, async (c) => {
    const { id } = c.req.valid("param");
    const record = await ferret.trace(id, { principal: c.get("caller").principal });
    if (!record) throw new NotFoundError(`no run ${id} you may read`);
    const { tenant: _t, sources: _s, ...shown } = record;
    return c.json(shown, 200);
  });

  app.openapi(decisionRoute, async (c) => {
    const { id } = c.req.valid("param");
    const decision = c.req.valid("json");
    if (!deps.gate.decide(id, c.get("caller").principal, decision))
      throw new NotFoundError(`no run ${id} of yours is waiting at a checkpoint`);
    return c.json({ accepted: true as const }, 202);
  });

  app.openapi(jobRoute, async (c) => {
    const { id } = c.req.valid("param");
    const job = deps.jobs.get(id, c.get("caller").principal);
    if (!job) throw new NotFoundError(`no job ${id} of yours`);
    return c.json(publicJob(job), 200);
  });

  app.openapi(newSessionRoute, async (c) => c.json({ id: randomUUID() }, 201));

  app.openapi(getSessionRoute, async (c) => {
    const { id } = c.req.valid("param");
    const turns = await ferret.turns(id, { principal: c.get("caller").principal });
    return c.json({ id, turns }, 200);
  });
}
