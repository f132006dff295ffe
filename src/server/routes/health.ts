import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";

/** Liveness, readiness (the store answers; not shutting down) and Prometheus metrics; no key needed. */
export function healthRoutes(app: OpenAPIHono<ServerEnv>, deps: ServerDeps, state: { stopping: boolean }): void {
  app.get("/healthz", (c) => c.json({ ok: true }));
  app.get("/readyz", async (c) => {
    if (state.stopping) return c.json({ ready: false, reason: "shutting down" }, 503);
    try {
      await deps.ferret.store.dataVersion("readyz");
      return c.json({ ready: true });
    } catch {
      return c.json({ ready: false, reason: "the store does not answer" }, 503);
    }
  });
  app.get("/metrics", (c) =>
    c.text(deps.metrics.render(), 200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" }),
  );
}
