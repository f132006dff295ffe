import { randomUUID } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { Logger } from "pino";
import type { ServerEnv } from "../env.js";
import type { ServerMetrics } from "../metrics.js";

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The pattern of the route that answered (`/v1/runs/:id`), never the raw path; `unmatched` for none. */
function routeOf(c: Context): string {
  const handlers = matchedRoutes(c).filter((r) => !r.path.endsWith("*"));
  return handlers.at(-1)?.path ?? "unmatched";
}

/**
 * A request id (the client's `x-request-id` when it is a plain token, else a new one), a child logger that
 * carries it, one log line per request (method, route, status, time, who; never a body), and the request
 * metrics by route pattern.
 */
export function requestLog(options: { logger: Logger; metrics: ServerMetrics }): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    const started = performance.now();
    const given = c.req.header("x-request-id");
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    const log = options.logger.child({ reqId: requestId });
    c.set("requestId", requestId);
    c.set("log", log);
    try {
      await next();
    } finally {
      c.header("x-request-id", requestId);
      const route = routeOf(c);
      const status = c.res.status;
      const seconds = (performance.now() - started) / 1000;
      options.metrics.requests.inc({ route, method: c.req.method, status: String(status) });
      options.metrics.latency.observe({ route, method: c.req.method }, seconds);
      const caller = c.get("caller");
      log.info(
        {
          method: c.req.method,
          route,
          status,
          ms: Math.round(seconds * 1000),
          ...(caller ? { tenant: caller.principal.tenant, user: caller.principal.user, keyId: caller.keyId } : {}),
        },
        "request",
      );
    }
  };
}
