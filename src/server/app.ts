import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import { secureHeaders } from "hono/secure-headers";
import pino, { type Logger } from "pino";
import type { z } from "zod";
import { type Ferret, InvalidInputError } from "../index.js";
import { CheckpointGate } from "./checkpoint-gate.js";
import type { ServeConfig } from "./config.js";
import type { ServerDeps } from "./deps.js";
import type { ServerEnv } from "./env.js";
import { errorBody, PayloadTooLargeError, retryAfterSeconds, statusOf } from "./errors.js";
import { JobRegistry } from "./jobs.js";
import { ConcurrencyLimiter } from "./limits/concurrency.js";
import { TokenBuckets } from "./limits/token-bucket.js";
import { ServerMetrics } from "./metrics.js";
import { authMiddleware } from "./middleware/auth.js";
import { requestLog } from "./middleware/request-log.js";
import { askRoutes } from "./routes/ask.js";
import { chatRoutes } from "./routes/chat.js";
import { docsRoutes } from "./routes/docs.js";
import { healthRoutes } from "./routes/health.js";
import { mcpRoutes } from "./routes/mcp.js";
import { meRoutes } from "./routes/me.js";
import { runRoutes } from "./routes/runs.js";
import { searchRoutes } from "./routes/search.js";
import { sourceRoutes } from "./routes/sources.js";
import { defaultUiDir, uiRoutes } from "./routes/ui.js";
import { RunService } from "./run-service.js";

export interface ServerApp {
  app: OpenAPIHono<ServerEnv>;
  deps: ServerDeps;
  /** Stops taking work, lets in-flight runs and uploads finish for `graceMs`, aborts the rest, closes the store. */
  shutdown(graceMs?: number): Promise<void>;
}

const issues = (error: z.ZodError) =>
  error.issues.map((i) => `${i.path.length > 0 ? i.path.join(".") : "body"}: ${i.message}`).join("; ");

const UPLOAD = /^\/v1\/sources\/[^/]+\/documents\/?$/;

/** The Hono app of `ferret serve`: middleware, every route, and the error mapping. */
export function createServerApp(options: {
  ferret: Ferret;
  config: ServeConfig;
  logger?: Logger;
  /** The built web UI served at `/` (default: `dist/web`; `false` serves none). */
  uiDir?: string | false;
}): ServerApp {
  const { ferret, config } = options;
  const logger = options.logger ?? pino({ level: config.logLevel });
  const metrics = new ServerMetrics();
  const gate = new CheckpointGate({ timeoutMs: config.checkpointTimeoutMs });
  const limiter = new ConcurrencyLimiter({ max: config.concurrency, queue: config.queue });
  const runs = new RunService({ ferret, config, metrics, gate, logger });
  const jobs = new JobRegistry();
  const deps: ServerDeps = { ferret, config, runs, limiter, gate, jobs, metrics };
  const state = { stopping: false };
  metrics.gauge("ferret_inflight_work", "Requests holding a work slot.", () => limiter.active);
  metrics.gauge("ferret_queued_work", "Requests waiting for a work slot.", () => limiter.queued);
  metrics.gauge("ferret_paused_runs", "Runs waiting at a checkpoint.", () => gate.size);

  const app = new OpenAPIHono<ServerEnv>({
    defaultHook: (result) => {
      if (!result.success) throw new InvalidInputError(issues(result.error as z.ZodError), { field: "body" });
    },
  });

  app.use("*", requestLog({ logger, metrics }));
  app.use(
    "*",
    secureHeaders({
      overwrite: false,
      contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
      crossOriginResourcePolicy: "same-origin",
    }),
  );
  const corsHeaders = cors({
    origin: (origin) => (config.corsOrigins.includes(origin) ? origin : null),
    allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
    allowHeaders: [
      "authorization",
      "content-type",
      "x-api-key",
      "x-request-id",
      "mcp-protocol-version",
      "mcp-session-id",
    ],
    exposeHeaders: ["retry-after", "x-request-id", "x-vercel-ai-ui-message-stream", "mcp-session-id"],
    maxAge: 600,
  });
  // Only a browser's cross-origin request carries Origin; answering CORS for the rest would build every
  // response twice (hono's cors sets headers before the route has made its response).
  app.use("*", (c, next) => {
    if (c.req.header("origin") !== undefined) return corsHeaders(c, next);
    c.header("Vary", "Origin");
    return next();
  });
  const tooLarge = (limit: string, bytes: number) => () => {
    throw new PayloadTooLargeError(`The request body is over ${bytes} bytes (${limit}).`, { limit, cap: bytes });
  };
  const jsonLimit = bodyLimit({ maxSize: config.maxBodyBytes, onError: tooLarge("maxBodyBytes", config.maxBodyBytes) });
  // Multipart framing adds a little to the files themselves.
  const uploadBytes = config.maxUploadBytes + 64 * 1024;
  const uploadLimit = bodyLimit({ maxSize: uploadBytes, onError: tooLarge("maxUploadBytes", config.maxUploadBytes) });
  app.use("/v1/*", (c, next) => {
    const upload = c.req.method === "POST" && UPLOAD.test(c.req.path);
    // A body framed by Content-Length is checked from the header alone (Node's parser never reads past it):
    // touching the body stream here would turn every request into a full web Request, which costs more than a
    // search. Chunked bodies are counted as they stream in.
    if (c.req.header("transfer-encoding") === undefined) {
      const length = c.req.header("content-length");
      if (length === undefined) return next();
      const cap = upload ? uploadBytes : config.maxBodyBytes;
      if (Number(length) > cap) {
        return upload ? tooLarge("maxUploadBytes", config.maxUploadBytes)() : tooLarge("maxBodyBytes", cap)();
      }
      return next();
    }
    return (upload ? uploadLimit : jsonLimit)(c, next);
  });
  const buckets = new TokenBuckets();
  const auth = authMiddleware({ ferret, config, buckets });
  app.use("/v1/*", auth);
  app.use("/mcp", auth);

  healthRoutes(app, deps, state);
  docsRoutes(app);
  askRoutes(app, deps);
  chatRoutes(app, deps);
  searchRoutes(app, deps);
  sourceRoutes(app, deps);
  runRoutes(app, deps);
  mcpRoutes(app, deps);
  meRoutes(app, deps);
  if (options.uiDir !== false) uiRoutes(app, { dir: options.uiDir ?? defaultUiDir() });

  app.notFound((c) =>
    c.json(
      { error: { name: "NotFound", message: `no route ${c.req.method} ${c.req.path}`, requestId: c.get("requestId") } },
      404,
    ),
  );
  app.onError((error, c) => {
    const requestId = c.get("requestId") ?? "";
    if (error instanceof HTTPException) {
      const status = error.status;
      return c.json({ error: { name: "HTTPError", message: error.message, requestId } }, status);
    }
    const status = statusOf(error);
    const log = c.get("log") ?? logger;
    if (status >= 500 && status !== 503) log.error({ err: error }, "request failed");
    else log.debug({ err: error }, "request refused");
    const retry = retryAfterSeconds(error);
    if (retry !== undefined) c.header("Retry-After", String(retry));
    return c.json(errorBody(error, requestId), status as 400);
  });

  return {
    app,
    deps,
    async shutdown(graceMs = config.shutdownGraceMs) {
      state.stopping = true;
      const started = Date.now();
      await runs.drain(graceMs);
      // Uploads in flight get what is left of the grace period.
      while (jobs.running().length > 0 && Date.now() - started < graceMs) await new Promise((r) => setTimeout(r, 50));
      limiter.close();
      await ferret.close();
    },
  };
}
