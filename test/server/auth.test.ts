import { SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFerret } from "../../src/index.js";
import { resolveServeConfig } from "../../src/server/config.js";
import { startServer } from "../../src/server/serve.js";
import { auth, postJson, startTestServer, type TestServer } from "./harness.js";
import { httpMcpClient } from "./mcp-client.js";

/** Every kind of route: reads, work, writes, runs and the MCP endpoint. */
const ROUTES: { method: string; path: string; body?: unknown }[] = [
  { method: "GET", path: "/v1/sources" },
  { method: "POST", path: "/v1/search", body: { query: "code word" } },
  { method: "POST", path: "/v1/ask", body: { question: "What is the code word?" } },
  { method: "POST", path: "/v1/ask/stream", body: { question: "What is the code word?" } },
  {
    method: "POST",
    path: "/v1/chat/completions",
    body: { model: "ferret", messages: [{ role: "user", content: "hi" }] },
  },
  { method: "GET", path: "/v1/sources/public_docs/documents" },
  { method: "DELETE", path: "/v1/sources/public_docs/documents/launch.md" },
  { method: "GET", path: "/v1/runs" },
  { method: "POST", path: "/v1/sessions", body: {} },
  { method: "GET", path: "/v1/jobs/00000000-0000-0000-0000-000000000000" },
  {
    method: "POST",
    path: "/mcp",
    body: {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    },
  },
];

function call(url: string, route: (typeof ROUTES)[number], headers: Record<string, string>): Promise<Response> {
  return fetch(`${url}${route.path}`, {
    method: route.method,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    ...(route.body !== undefined ? { body: JSON.stringify(route.body) } : {}),
  });
}

async function expect401(url: string, headers: Record<string, string>, what: string): Promise<void> {
  for (const route of ROUTES) {
    const res = await call(url, route, headers);
    expect(res.status, `${what}: ${route.method} ${route.path}`).toBe(401);
    const body = (await res.json()) as { error: { name: string } };
    expect(body.error.name).toBe("UnauthorizedError");
  }
}

describe("auth fails closed", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it("a missing key gets 401 on every route and /mcp; health and the OpenAPI document stay open", async () => {
    await expect401(t.url, {}, "no key");
    await expect401(t.url, { authorization: "Basic dXNlcjpwYXNz" }, "basic auth");
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${t.url}/openapi.json`)).status).toBe(200);
  });

  it("a wrong key gets 401: unknown, tampered, not a ferret key, and no JWT is configured", async () => {
    const real = t.keys["acme-eng"]!;
    const tampered = `${real.slice(0, -4)}${real.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`;
    await expect401(t.url, { authorization: `Bearer ${tampered}` }, "tampered key");
    await expect401(t.url, { authorization: "Bearer fk_000000000000_nope" }, "unknown key");
    await expect401(t.url, { authorization: "Bearer eyJhbGciOiJub25lIn0.eyJ0ZW5hbnQiOiJhY21lIn0." }, "unsigned JWT");
    await expect401(t.url, { "x-api-key": "fk_garbage" }, "x-api-key garbage");
  });

  it("a revoked key gets 401 on its next request, other keys keep working", async () => {
    const created = await t.ferret.keys.create({ tenant: "acme", user: "temp", roles: ["eng"] });
    expect((await fetch(`${t.url}/v1/sources`, { headers: auth(created.key) })).status).toBe(200);
    const mcp = await httpMcpClient(t.url, created.key);
    await mcp.close();
    expect(await t.ferret.keys.revoke(created.info.id)).toBe(true);
    await expect401(t.url, { authorization: `Bearer ${created.key}` }, "revoked key");
    await expect(httpMcpClient(t.url, created.key)).rejects.toThrow();
    expect((await fetch(`${t.url}/v1/sources`, { headers: auth(t.keys["acme-eng"]!) })).status).toBe(200);
  });

  it("nothing in a request body widens the key's principal", async () => {
    const res = await postJson(`${t.url}/v1/search`, t.keys["globex-user"]!, {
      query: "code word",
      principal: { tenant: "acme", user: "root", roles: ["*"] },
      tenant: "acme",
      roles: ["*"],
    });
    // Unknown fields are refused or ignored; either way nothing of acme comes back.
    expect([200, 400]).toContain(res.status);
    const text = await res.text();
    expect(text).not.toMatch(/public_docs|hr_docs|tickets/);
  });
});

describe("JWT bearer tokens", () => {
  const secret = "test-secret-that-is-long-enough-0123456789";
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      config: { jwt: { secret, issuer: "ferret-test", claims: { tenant: "org", user: "sub", roles: "groups" } } },
    });
  });
  afterAll(() => t.close());

  const sign = (claims: Record<string, unknown>, key = secret, issuer = "ferret-test") =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(issuer)
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode(key));

  it("maps the configured claims to the principal, and refuses bad signatures, issuers and claims", async () => {
    const token = await sign({ org: "acme", sub: "hana", groups: ["hr"] });
    const sources = (await (await fetch(`${t.url}/v1/sources`, { headers: auth(token) })).json()) as {
      sources: { name: string }[];
    };
    expect(sources.sources.map((s) => s.name).sort()).toEqual(["hr_docs", "public_docs", "tickets"]);
    await expect401(
      t.url,
      { authorization: `Bearer ${await sign({ org: "acme", sub: "x" }, "other-secret-0123456789-0123456789")}` },
      "bad signature",
    );
    await expect401(
      t.url,
      { authorization: `Bearer ${await sign({ org: "acme", sub: "x" }, secret, "evil")}` },
      "bad issuer",
    );
    await expect401(t.url, { authorization: `Bearer ${await sign({ sub: "x", groups: ["*"] })}` }, "no tenant claim");
  });
});

describe("--insecure-local", () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it("refuses a non-loopback host, and on loopback warns at start and acts as the local owner", async () => {
    const ferret = await createFerret({ db: ":memory:" });
    closers.push(() => ferret.close());
    await expect(
      startServer({ ferret, config: resolveServeConfig({ flags: { host: "0.0.0.0", port: 0, insecureLocal: true } }) }),
    ).rejects.toThrow(/loopback/);
    const lines: string[] = [];
    const { default: pino } = await import("pino");
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    const server = await startServer({
      ferret,
      config: resolveServeConfig({ flags: { host: "127.0.0.1", port: 0, insecureLocal: true } }),
      logger,
    });
    closers.unshift(() => server.close(100));
    expect(lines.some((l) => l.includes("--insecure-local") && l.includes('"level":40'))).toBe(true);
    expect((await fetch(`${server.url}/v1/sources`)).status).toBe(200);
  });
});
