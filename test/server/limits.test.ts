import { afterEach, describe, expect, it } from "vitest";
import { createScriptedEngine } from "../../src/agent/testing/scripted-engine.js";
import type { Answer } from "../../src/index.js";
import { auth, postJson, startTestServer, type TestServer } from "./harness.js";

const PRICED = {
  usage: () => ({ model: "test:priced", inputTokens: 100, outputTokens: 20, costUsd: 0.01, ms: 1 }),
};

describe("limits that hold under load", () => {
  let t: TestServer | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("a key over its rate gets 429 with Retry-After; other keys are not affected", async () => {
    t = await startTestServer();
    const limited = await t.ferret.keys.create({
      tenant: "acme",
      user: "bot",
      roles: ["eng"],
      rate: { requests: 2, perMs: 60_000 },
    });
    const get = (key: string) => fetch(`${t!.url}/v1/sources`, { headers: auth(key) });
    expect((await get(limited.key)).status).toBe(200);
    expect((await get(limited.key)).status).toBe(200);
    const third = await get(limited.key);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(third.headers.get("retry-after"))).toBeLessThanOrEqual(30);
    expect(((await third.json()) as { error: { name: string } }).error.name).toBe("RateLimitedError");
    expect((await get(t.keys["acme-eng"]!)).status).toBe(200);
  });

  it("100 concurrent asks and 200 concurrent searches from one key complete without an error", async () => {
    t = await startTestServer();
    const key = t.keys["acme-eng"]!;
    const asks = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        postJson(`${t!.url}/v1/ask`, key, {
          question: i % 2 === 0 ? "What is the launch checklist code word?" : "Wie lange dauert die Druckprüfung?",
        }),
      ),
    );
    expect(asks.map((r) => r.status)).toEqual(Array(100).fill(200));
    const answers = (await Promise.all(asks.map((r) => r.json()))) as Answer[];
    expect(answers.every((a) => a.status === "answered")).toBe(true);
    const searches = await Promise.all(
      Array.from({ length: 200 }, () => postJson(`${t!.url}/v1/search`, key, { query: "code word" })),
    );
    expect(searches.map((r) => r.status)).toEqual(Array(200).fill(200));
  });

  it("a full queue answers 503 with Retry-After at once", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const engine = createScriptedEngine({
      route: async () => {
        await gate;
        return { route: "rag", reason: "test" };
      },
    });
    t = await startTestServer({ model: engine, config: { concurrency: 1, queue: 1 } });
    const key = t.keys["acme-eng"]!;
    const first = postJson(`${t.url}/v1/ask`, key, { question: "What is the code word?" });
    while (engine.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
    const second = postJson(`${t.url}/v1/ask`, key, { question: "What is the code word?" });
    await new Promise((r) => setTimeout(r, 50));
    const third = await postJson(`${t.url}/v1/search`, key, { query: "code word" });
    expect(third.status).toBe(503);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    release();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
  });

  it("request budgets lower the server's maxima and never raise them", async () => {
    t = await startTestServer({ config: { maxima: { maxToolCalls: 1, maxSteps: 1 } } });
    const key = t.keys["acme-eng"]!;
    const question = "What is the launch checklist code word, and how long is the pressure test?";
    const asked = (await (
      await postJson(`${t.url}/v1/ask`, key, {
        question,
        mode: "agentic",
        budgets: { maxToolCalls: 50, maxSteps: 20 },
      })
    ).json()) as Answer;
    expect(asked.usage.toolCalls).toBeLessThanOrEqual(1);
    expect(asked.stepCount).toBeLessThanOrEqual(1);
    const bad = await postJson(`${t.url}/v1/ask`, key, { question, budgets: { maxToolCalls: -3 } });
    expect(bad.status).toBe(400);
  });

  it("request bodies over the limit get 413", async () => {
    t = await startTestServer({ config: { maxBodyBytes: 2048 } });
    const res = await postJson(`${t.url}/v1/ask`, t.keys["acme-eng"]!, { question: "x".repeat(5000) });
    expect(res.status).toBe(413);
    const form = new FormData();
    form.append("files", new Blob(["y".repeat(10_000)]), "big.md");
    const upload = await fetch(`${t.url}/v1/sources/hr_docs/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.keys["acme-hr"]}` },
      body: form,
    });
    expect(upload.status).toBe(202);
  });

  it("a chunked body is counted as it streams and gets 413 past the limit; one under it is served", async () => {
    t = await startTestServer({ config: { maxBodyBytes: 2048 } });
    const chunked = (text: string) =>
      fetch(`${t!.url}/v1/search`, {
        method: "POST",
        headers: { ...auth(t!.keys["acme-eng"]!), "content-type": "application/json" },
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(text));
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
    expect((await chunked(JSON.stringify({ query: "x".repeat(5000) }))).status).toBe(413);
    expect((await chunked(JSON.stringify({ query: "refund" }))).status).toBe(200);
  });

  it("CORS headers answer an allowed browser origin only; every response varies by Origin", async () => {
    t = await startTestServer({ config: { corsOrigins: ["https://app.example"] } });
    const key = t.keys["acme-eng"]!;
    const plain = await fetch(`${t.url}/v1/sources`, { headers: auth(key) });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("vary")).toMatch(/origin/i);
    expect(plain.headers.get("access-control-allow-origin")).toBeNull();
    const allowed = await fetch(`${t.url}/v1/sources`, { headers: auth(key, { origin: "https://app.example" }) });
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const other = await fetch(`${t.url}/v1/sources`, { headers: auth(key, { origin: "https://evil.example" }) });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("uploads over the upload limit or the file count get 413", async () => {
    t = await startTestServer({ config: { maxUploadBytes: 4096, maxUploadFiles: 2 } });
    const upload = (files: [string, string][]) => {
      const form = new FormData();
      for (const [name, text] of files) form.append("files", new Blob([text]), name);
      return fetch(`${t!.url}/v1/sources/hr_docs/documents`, {
        method: "POST",
        headers: { authorization: `Bearer ${t!.keys["acme-hr"]}` },
        body: form,
      });
    };
    const big = await upload([["big.md", "z".repeat(8000)]]);
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { name: string } }).error.name).toBe("PayloadTooLargeError");
    expect(
      (
        await upload([
          ["a.md", "a"],
          ["b.md", "b"],
          ["c.md", "c"],
        ])
      ).status,
    ).toBe(413);
    expect((await upload([["a.md", "# A\n\nsmall"]])).status).toBe(202);
  });

  it("the daily spend cap stops runs with spend_cap, survives a restart, and resets at 00:00 UTC", async () => {
    let now = Date.UTC(2026, 4, 1, 23, 50);
    const clock = () => now;
    const engine = createScriptedEngine(PRICED);
    t = await startTestServer({ model: engine, config: { dailyUsd: 0.05 }, ferret: { now: clock } });
    const key = t.keys["acme-eng"]!;
    const ask = async (server: TestServer) =>
      (await (await postJson(`${server.url}/v1/ask`, key, { question: "What is the code word?" })).json()) as Answer;
    let spent = 0;
    let last: Answer | undefined;
    for (let i = 0; i < 10; i++) {
      last = await ask(t);
      spent += last.usage.costUsd;
      if (last.stopReason === "spend_cap") break;
    }
    expect(last?.stopReason).toBe("spend_cap");
    expect(spent).toBeLessThanOrEqual(0.05 + 1e-9);
    expect(await t.ferret.spend.spent({ tenant: "acme" })).toBeCloseTo(spent, 9);
    // Another tenant has its own cap.
    const globex = (await (
      await postJson(`${t.url}/v1/ask`, t.keys["globex-user"]!, { question: "What is the code word?" })
    ).json()) as Answer;
    expect(globex.stopReason).not.toBe("spend_cap");

    const { dir, keys } = t;
    await t.close({ keepDir: true });
    const engine2 = createScriptedEngine(PRICED);
    t = await startTestServer({
      dir,
      keys,
      ingest: false,
      model: engine2,
      config: { dailyUsd: 0.05 },
      ferret: { now: clock },
    });
    const after = await ask(t);
    expect(after).toMatchObject({ status: "refused", stopReason: "spend_cap" });
    expect(engine2.calls).toEqual([]);
    // Past midnight UTC the tenant may spend again.
    now += 15 * 60_000;
    const nextDay = await ask(t);
    expect(nextDay.stopReason).not.toBe("spend_cap");
    expect(nextDay.usage.costUsd).toBeGreaterThan(0);
  });

  it("a key's own daily cap stops that key only", async () => {
    t = await startTestServer({ model: createScriptedEngine(PRICED) });
    const capped = await t.ferret.keys.create({ tenant: "acme", user: "bot", roles: ["eng"], dailyUsd: 0.02 });
    let stop = "";
    for (let i = 0; i < 6 && stop !== "spend_cap"; i++) {
      stop = ((await (await postJson(`${t.url}/v1/ask`, capped.key, { question: "code word?" })).json()) as Answer)
        .stopReason;
    }
    expect(stop).toBe("spend_cap");
    const other = (await (
      await postJson(`${t.url}/v1/ask`, t.keys["acme-eng"]!, { question: "code word?" })
    ).json()) as Answer;
    expect(other.stopReason).not.toBe("spend_cap");
  });
});
