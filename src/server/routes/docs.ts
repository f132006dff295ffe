import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ServerEnv } from "../env.js";

const OPENAPI = { openapi: "3.0.3", info: { title: "ferret", version: "0.1.0" } };

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** `GET /openapi.json` (generated from the zod schemas) and `GET /docs`, a small page listing the routes. */
export function docsRoutes(app: OpenAPIHono<ServerEnv>): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "An API key from `ferret keys create` (or a JWT when the server is configured for them).",
  });
  app.doc("/openapi.json", OPENAPI);
  app.get("/docs", (c) => {
    const doc = app.getOpenAPIDocument(OPENAPI);
    const rows: string[] = [];
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const [method, op] of Object.entries(item as Record<string, { summary?: string; description?: string }>)) {
        rows.push(
          `<tr><td><code>${escapeHtml(method.toUpperCase())}</code></td><td><code>${escapeHtml(path)}</code></td>` +
            `<td>${escapeHtml(op.summary ?? "")}${op.description ? `<br><small>${escapeHtml(op.description)}</small>` : ""}</td></tr>`,
        );
      }
    }
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ferret API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
td{vertical-align:top;padding:.4rem .6rem;border-bottom:1px solid #8884}small{color:#666}</style></head>
<body><h1>ferret API</h1><p>Send an API key as <code>Authorization: Bearer &lt;key&gt;</code>.
The machine-readable description is at <a href="/openapi.json">/openapi.json</a>.</p>
<table>${rows.join("\n")}</table></body></html>`;
    c.header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
    return c.html(html);
  });
}
