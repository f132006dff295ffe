import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PERSONAS } from "../fixtures/server/two-tenants.js";
import { auth, postJson, startTestServer, type TestServer } from "./harness.js";

/**
 * The server acts as the principal of the key on every request, never as a default (owner) principal: the
 * knowledge base it serves has a default principal that fails when asked for, and every route still works.
 */
describe("the server never falls back to a default principal", () => {
  let t: TestServer;
  const asked: string[] = [];
  beforeAll(async () => {
    t = await startTestServer({
      ferret: {
        principal: async () => {
          asked.push(new Error().stack ?? "");
          throw new Error("the server asked for a default principal");
        },
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers, searches and lists for each key as that key's principal", async () => {
    const eng = PERSONAS.find((p) => p.name === "acme-eng")!;
    const key = t.keys[eng.name]!;
    const search = await postJson(`${t.url}/v1/search`, key, { query: "code word" });
    expect(search.status).toBe(200);
    const ask = await postJson(`${t.url}/v1/ask`, key, { question: "What is the launch checklist code word?" });
    expect(ask.status).toBe(200);
    const sources = await fetch(`${t.url}/v1/sources`, { headers: auth(key) });
    expect(sources.status).toBe(200);
    const names = ((await sources.json()) as { sources: { name: string }[] }).sources.map((s) => s.name).sort();
    expect(names).toEqual([...eng.readable].sort());
    const runs = await fetch(`${t.url}/v1/runs`, { headers: auth(key) });
    expect(runs.status).toBe(200);
    const me = (await (await fetch(`${t.url}/v1/me`, { headers: auth(key) })).json()) as Record<string, unknown>;
    expect(JSON.stringify(me)).toContain(eng.principal.user);
    expect(asked).toEqual([]);
  });

  it("refuses a request without a key instead of acting as anyone", async () => {
    const res = await fetch(`${t.url}/v1/sources`);
    expect(res.status).toBe(401);
    expect(asked).toEqual([]);
  });
});
