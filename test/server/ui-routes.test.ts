import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFerret, type Ferret } from "../../src/index.js";
import { createServerApp, type ServerApp } from "../../src/server/app.js";
import { resolveServeConfig } from "../../src/server/config.js";

describe("ferret serve: the web UI's files and GET /v1/me", () => {
  let dir: string;
  let ferret: Ferret;
  let server: ServerApp;
  let bare: ServerApp;
  let key: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "ferret-ui-routes-"));
    const ui = join(dir, "web");
    mkdirSync(join(ui, "assets"), { recursive: true });
    writeFileSync(join(ui, "index.html"), '<!doctype html><script type="module" src="/assets/app-1.js"></script>');
    writeFileSync(join(ui, "assets", "app-1.js"), "console.log('ui')");
    writeFileSync(join(ui, "assets", "app-1.css"), "body{}");
    writeFileSync(join(ui, "favicon.svg"), "<svg/>");
    ferret = await createFerret({ db: join(dir, "ferret.db") });
    key = (await ferret.keys.create({ tenant: "acme", user: "ana", roles: ["eng", "writer"] })).key;
    const config = resolveServeConfig({ flags: { host: "127.0.0.1", port: 0 } });
    const logger = pino({ level: "silent" });
    server = createServerApp({ ferret, config, logger, uiDir: ui });
    bare = createServerApp({ ferret, config, logger, uiDir: join(dir, "missing") });
  });
  afterAll(async () => {
    await ferret.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the page and its assets with their types, and a CSP that allows only same-origin files", async () => {
    const page = await server.app.request("/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(await page.text()).toContain("/assets/app-1.js");

    const script = await server.app.request("/assets/app-1.js");
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("cache-control")).toContain("immutable");
    expect((await server.app.request("/assets/app-1.css")).headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect((await server.app.request("/favicon.svg")).headers.get("content-type")).toBe("image/svg+xml");
  });

  it("serves only the files it listed: unknown and traversing paths are 404", async () => {
    expect((await server.app.request("/assets/nope.js")).status).toBe(404);
    expect((await server.app.request("/assets/..%2F..%2Fferret.db")).status).toBe(404);
    expect((await server.app.request("/assets/../index.html")).status).not.toBe(500);
  });

  it("keeps the API's CSP at default-src 'none'", async () => {
    const api = await server.app.request("/v1/me", { headers: { authorization: `Bearer ${key}` } });
    expect(api.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(api.headers.get("content-security-policy")).not.toContain("script-src");
  });

  it("says how to build the UI when it is not built", async () => {
    const page = await bare.app.request("/");
    expect(page.status).toBe(503);
    expect(await page.text()).toContain("npm run build");
  });

  it("GET /v1/me shows the key's principal and whether it may write; no key is 401", async () => {
    const me = await server.app.request("/v1/me", { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ tenant: "acme", user: "ana", roles: ["eng", "writer"], canWrite: true });
    expect((await server.app.request("/v1/me")).status).toBe(401);
  });
});
