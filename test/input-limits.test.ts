import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AgentEngineV1, createFerret, type Ferret, InvalidInputError, type StoreV1 } from "../src/index.js";
import { createOfflineEngine } from "../src/models/offline/index.js";
import { createSqliteStore } from "../src/stores/sqlite/index.js";

const ACME = new URL("../examples/acme", import.meta.url).pathname;

/** Wraps an object so every method call after `arm()` is recorded. */
function recording<T extends object>(target: T): { value: T; calls: string[]; arm: () => void } {
  const calls: string[] = [];
  let armed = false;
  const value = new Proxy(target, {
    get(obj, key, receiver) {
      const member = Reflect.get(obj, key, receiver);
      if (typeof member !== "function") return member;
      return (...args: unknown[]) => {
        if (armed) calls.push(String(key));
        return member.apply(obj, args);
      };
    },
  });
  return { value, calls, arm: () => (armed = true) };
}

describe("input caps at the library facade", () => {
  let ferret: Ferret | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await ferret?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(inputLimits?: { maxQuestionChars?: number; maxQueryChars?: number }) {
    dir = mkdtempSync(join(tmpdir(), "ferret-caps-"));
    const store = recording<StoreV1>(await createSqliteStore({ path: join(dir, "ferret.db") }));
    const engine = recording<AgentEngineV1>(createOfflineEngine());
    ferret = await createFerret({ store: store.value, model: engine.value, inputLimits });
    await ferret.ingest(ACME);
    store.arm();
    engine.arm();
    return { ferret, store, engine };
  }

  it("refuses a 1 MB question before touching the store or the engine (ask and stream)", async () => {
    const { ferret, store, engine } = await open();
    const huge = "Who leads the Telemetry Gateway team? ".repeat(27_000);
    expect(huge.length).toBeGreaterThan(1_000_000);
    const asked = ferret.ask(huge);
    await expect(asked).rejects.toBeInstanceOf(InvalidInputError);
    await expect(asked).rejects.toMatchObject({ context: { field: "question", limit: 4000 } });
    const streamed = ferret.stream(huge)[Symbol.asyncIterator]().next();
    await expect(streamed).rejects.toMatchObject({ name: "InvalidInputError", context: { field: "question" } });
    expect(store.calls).toEqual([]);
    expect(engine.calls).toEqual([]);
  });

  it("answers a question of exactly 4,000 characters", async () => {
    const { ferret } = await open();
    const question = "Who leads the team that owns the Telemetry Gateway?".padEnd(4000, " please");
    expect(question).toHaveLength(4000);
    const answer = await ferret.ask(question);
    expect(answer.text).toContain("Dana Okafor");
  });

  it("caps search queries, and the caps come from the options", async () => {
    const { ferret, store } = await open({ maxQuestionChars: 30, maxQueryChars: 20 });
    await expect(ferret.search("x".repeat(21))).rejects.toMatchObject({ context: { field: "query", limit: 20 } });
    await expect(ferret.ask("Who leads the team that owns the Telemetry Gateway?")).rejects.toMatchObject({
      context: { field: "question", limit: 30 },
    });
    expect(store.calls).toEqual([]);
    expect((await ferret.search("Telemetry Gateway")).length).toBeGreaterThan(0);
  });

  it("caps the history a caller passes", async () => {
    const { ferret } = await open();
    const history = Array.from({ length: 51 }, () => ({ role: "user" as const, content: "earlier" }));
    await expect(ferret.ask("And who leads it?", { history })).rejects.toMatchObject({
      context: { field: "history", limit: 50 },
    });
  });
});
