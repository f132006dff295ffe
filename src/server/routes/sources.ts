import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { InvalidInputError, type Principal, type UploadFile } from "../../index.js";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { ForbiddenError, NotFoundError, PayloadTooLargeError } from "../errors.js";
import { DocumentEntrySchema, DocumentSchema, JobSchema, SOURCE_NAME, SourceSchema } from "../schemas.js";
import { ERRORS, json, NOT_FOUND, SECURITY } from "./common.js";

const NameParam = z.object({ name: SOURCE_NAME.openapi({ param: { name: "name", in: "path" } }) });
const DocParams = NameParam.extend({
  id: z
    .string()
    .min(1)
    .max(1024)
    .openapi({ param: { name: "id", in: "path" }, description: "The document id, URL-encoded (ids hold `/`)" }),
});

const listRoute = createRoute({
  method: "get",
  path: "/v1/sources",
  summary: "The sources the caller may read, with document and chunk counts",
  security: SECURITY,
  responses: { 200: json(z.object({ sources: z.array(SourceSchema) }), "Readable sources"), ...ERRORS },
});

const documentsRoute = createRoute({
  method: "get",
  path: "/v1/sources/{name}/documents",
  summary: "A page of the readable documents of a source (no text)",
  security: SECURITY,
  request: {
    params: NameParam,
    query: z.object({
      limit: z.coerce.number().int().min(1).max(200).optional(),
      after: z.string().max(1024).optional(),
    }),
  },
  responses: {
    200: json(z.object({ documents: z.array(DocumentEntrySchema), next: z.string().optional() }), "Documents by id"),
    ...ERRORS,
    ...NOT_FOUND,
  },
});

const documentRoute = createRoute({
  method: "get",
  path: "/v1/sources/{name}/documents/{id}",
  summary: "A readable document with its text and its chunks (with offsets)",
  security: SECURITY,
  request: { params: DocParams },
  responses: { 200: json(DocumentSchema, "The document"), ...ERRORS, ...NOT_FOUND },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/v1/sources/{name}/documents/{id}",
  summary: "Remove a document (needs a write role)",
  security: SECURITY,
  request: { params: DocParams },
  responses: { 204: { description: "Removed" }, ...ERRORS, ...NOT_FOUND },
});

const uploadRoute = createRoute({
  method: "post",
  path: "/v1/sources/{name}/documents",
  summary: "Upload files into a documents source (multipart; needs a write role); answers a job id",
  description:
    "Each file part becomes a document whose id is its file name (folders allowed: `guides/setup.md`). A new source " +
    "takes the optional `description` and `acl` (comma-separated roles) fields; an existing one keeps its own. " +
    "Follow the job at GET /v1/jobs/{id}: files that fail or are skipped are listed there with the reason.",
  security: SECURITY,
  request: {
    params: NameParam,
    body: {
      content: {
        "multipart/form-data": {
          schema: z.object({
            files: z.any().openapi({ type: "array", items: { type: "string", format: "binary" } }),
            description: z.string().optional(),
            acl: z.string().optional(),
          }),
        },
      },
      required: true,
    },
  },
  responses: {
    202: json(z.object({ jobId: z.string(), job: JobSchema }), "Accepted: the job ingesting the files"),
    ...ERRORS,
    403: json(z.object({ error: z.object({ name: z.string(), message: z.string() }) }), "No write role"),
    413: json(z.object({ error: z.object({ name: z.string(), message: z.string() }) }), "Upload too large"),
  },
});

function mayWrite(principal: Principal, writeRoles: readonly string[]): boolean {
  return principal.roles.includes("*") || principal.roles.some((r) => writeRoles.includes(r));
}

export function sourceRoutes(app: OpenAPIHono<ServerEnv>, deps: ServerDeps): void {
  const { ferret, config } = deps;

  app.openapi(listRoute, async (c) => {
    const sources = await ferret.sources({ principal: c.get("caller").principal });
    // No tenant, no ingest path: neither is the caller's business.
    const shown = sources.map(({ tenant: _t, path: _p, ...rest }) => ({
      ...rest,
      ...(rest.tables
        ? { tables: rest.tables.map((t) => ({ name: t.name, columns: t.columns, primaryKey: t.primaryKey })) }
        : {}),
    }));
    return c.json({ sources: shown }, 200);
  });

  app.openapi(documentsRoute, async (c) => {
    const { name } = c.req.valid("param");
    const query = c.req.valid("query");
    const page = await ferret.documents(name, { principal: c.get("caller").principal, ...query });
    if (!page) throw new NotFoundError(`no readable source "${name}"`);
    return c.json(page, 200);
  });

  app.openapi(documentRoute, async (c) => {
    const { name, id } = c.req.valid("param");
    const found = await ferret.document(id, { source: name, principal: c.get("caller").principal });
    if (!found) throw new NotFoundError(`no readable document "${id}" in source "${name}"`);
    const { document, chunks } = found;
    return c.json(
      {
        id: document.id,
        source: document.source,
        title: document.title,
        ...(document.updatedAt ? { updatedAt: document.updatedAt } : {}),
        text: document.text,
        metadata: document.metadata,
        chunks,
      },
      200,
    );
  });

  app.openapi(deleteRoute, async (c) => {
    const { name, id } = c.req.valid("param");
    const principal = c.get("caller").principal;
    if (!mayWrite(principal, config.writeRoles)) throw new ForbiddenError("removing documents needs a write role");
    const removed = await ferret.removeDocument(id, { source: name, principal });
    if (!removed) throw new NotFoundError(`no readable document "${id}" in source "${name}"`);
    return c.body(null, 204);
  });

  app.openapi(uploadRoute, async (c) => {
    const { name } = c.req.valid("param");
    const principal = c.get("caller").principal;
    if (!mayWrite(principal, config.writeRoles)) throw new ForbiddenError("uploading needs a write role");
    const form = await c.req.parseBody({ all: true });
    const files: UploadFile[] = [];
    let bytes = 0;
    for (const value of Object.values(form).flat()) {
      if (!(value instanceof File)) continue;
      if (files.length >= config.maxUploadFiles)
        throw new PayloadTooLargeError(`at most ${config.maxUploadFiles} files per upload`, {
          limit: "maxUploadFiles",
        });
      bytes += value.size;
      if (bytes > config.maxUploadBytes)
        throw new PayloadTooLargeError(`the upload is over ${config.maxUploadBytes} bytes`, {
          limit: "maxUploadBytes",
        });
      files.push({ name: value.name, data: new Uint8Array(await value.arrayBuffer()) });
    }
    if (files.length === 0) throw new InvalidInputError("the upload holds no file parts", { field: "files" });
    const text = (field: string) => (typeof form[field] === "string" ? (form[field] as string) : undefined);
    const acl = text("acl")
      ?.split(",")
      .map((r) => r.trim())
      .filter(Boolean);
    const release = await deps.limiter.acquire(c.req.raw.signal);
    const job = deps.jobs.create(principal, name, files.length);
    const log = c.get("log");
    // The job runs after the answer: the client follows it at /v1/jobs/{id}.
    void (async () => {
      job.state = "running";
      try {
        job.summary = await ferret.upload(files, {
          source: name,
          principal,
          description: text("description"),
          acl,
          onProgress: (p) => {
            job.progress = { phase: p.phase, done: p.done, total: p.total, ...(p.file ? { file: p.file } : {}) };
          },
        });
        job.state = "done";
      } catch (error) {
        job.state = "failed";
        const e = error instanceof Error ? error : new Error(String(error));
        job.error = { name: e.name, message: e.message };
        log.warn({ err: error, jobId: job.id }, "upload failed");
      } finally {
        job.finishedAt = new Date().toISOString();
        release();
      }
    })();
    return c.json({ jobId: job.id, job: publicJob(job) }, 202);
  });
}

export function publicJob(job: import("../jobs.js").Job) {
  const { tenant: _t, user: _u, ...rest } = job;
  return rest;
}
