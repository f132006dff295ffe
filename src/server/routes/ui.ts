import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ServerEnv } from "../env.js";

/**
 * The web UI's policy: its own scripts, styles, images and API calls only (no inline script, nothing from
 * another origin). Every other response keeps the API's `default-src 'none'`.
 */
export const UI_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * Where the built UI is: `dist/web` beside the compiled server (`dist/server/routes` → `dist/web`), or, when the
 * server runs from its sources (tests, tsx), the `dist/web` of the checkout.
 */
export function defaultUiDir(): string | undefined {
  for (const candidate of ["../../web", "../../../dist/web"]) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(join(dir, "index.html"))) return dir;
  }
  return undefined;
}

/** Every file under `dir`, by URL path (`/assets/index-abc.js`). */
function filesOf(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(`/${relative(dir, path).split(sep).join("/")}`, path);
    }
  };
  walk(dir);
  return files;
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ferret</title></head>
<body><h1>ferret</h1><p>The web UI is not built. Run <code>npm run build</code> in the ferret folder, then restart
<code>ferret serve</code>. The API is at <a href="/docs">/docs</a>.</p></body></html>`;

/**
 * The single-page web UI at `/`: the files Vite built, listed once at start (only those are served, so no path
 * from a request ever reaches the file system). Hashed assets are cached for good, the page itself never.
 */
export function uiRoutes(app: OpenAPIHono<ServerEnv>, options: { dir: string | undefined }): void {
  const files =
    options.dir && existsSync(join(options.dir, "index.html")) ? filesOf(options.dir) : new Map<string, string>();
  const body = new Map<string, Uint8Array>();
  const read = (path: string) => {
    let data = body.get(path);
    if (!data) {
      data = new Uint8Array(readFileSync(files.get(path)!));
      body.set(path, data);
    }
    return data;
  };
  const page = (c: Context<ServerEnv>) => {
    c.header("Content-Security-Policy", UI_CSP);
    c.header("Cache-Control", "no-cache");
    if (!files.has("/index.html")) return c.html(NOT_BUILT, 503);
    return c.body(read("/index.html") as Uint8Array<ArrayBuffer>, 200, { "Content-Type": TYPES[".html"]! });
  };
  app.get("/", page);
  app.get("/index.html", page);
  app.get("/assets/*", (c) => {
    const path = c.req.path;
    if (!files.has(path)) return c.notFound();
    c.header("Content-Security-Policy", UI_CSP);
    c.header("Cache-Control", "public, max-age=31536000, immutable");
    c.header("X-Content-Type-Options", "nosniff");
    const type = TYPES[extname(path)] ?? "application/octet-stream";
    return c.body(read(path) as Uint8Array<ArrayBuffer>, 200, { "Content-Type": type });
  });
  for (const path of files.keys()) {
    if (path === "/index.html" || path.startsWith("/assets/")) continue;
    app.get(path, (c) => {
      c.header("Content-Security-Policy", UI_CSP);
      c.header("Cache-Control", "no-cache");
      return c.body(read(path) as Uint8Array<ArrayBuffer>, 200, {
        "Content-Type": TYPES[extname(path)] ?? "application/octet-stream",
      });
    });
  }
}
