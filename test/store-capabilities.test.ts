import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFerret, type Ferret, type Principal } from "../src/index.js";
import type { EmbedderV1 } from "../src/spec/embedder.js";
import type { SqlDialect } from "../src/spec/sql-dialect.js";
import type { StoreCapability, StoreV1 } from "../src/spec/store.js";
import { createSqliteStore } from "../src/stores/sqlite/index.js";

const ACME = new URL("../examples/acme", import.meta.url).pathname;
const owner: Principal = { tenant: "acme", user: "root", roles: ["*"] };

/** A real SQLite store that declares only some of its capabilities. */
function declaring(store: StoreV1, capabilities: StoreCapability[]): StoreV1 {
  const declared: ReadonlySet<StoreCapability> = new Set(capabilities);
  return new Proxy(store, {
    get(target, key) {
      if (key === "capabilities") return declared;
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("the library asks the store for capabilities, not for a kind of store", () => {
  let dir: string;
  let ferret: Ferret;
  let full: Ferret;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "ferret-caps-"));
    const store = await createSqliteStore({ path: join(dir, "few.db") });
    ferret = await createFerret({
      store: declaring(store, ["documents", "keyword", "vector"]),
      principal: owner,
      onWarning: () => {},
    });
    full = await createFerret({ db: join(dir, "full.db"), principal: owner, onWarning: () => {} });
  });
  afterAll(async () => {
    await ferret.close();
    await full.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps a CSV out of SQL when the store declares no tables, and offers no SQL or graph tools", async () => {
    const few = await ferret.ingest(ACME);
    expect(few.failed).toEqual([
      { file: expect.stringContaining("support_tickets.csv"), reason: "the sqlite store keeps no SQL tables" },
    ]);
    const names = (await ferret.toolbox()).tools.map((t) => t.name);
    expect(names).toContain("search");
    expect(names.filter((n) => /sql|table|entity|graph|path/.test(n))).toEqual([]);
    // The same data in a store with every capability: the table and graph tools are there.
    expect((await full.ingest(ACME)).failed).toEqual([]);
    const all = (await full.toolbox()).tools.map((t) => t.name);
    expect(all).toEqual(expect.arrayContaining(["run_sql", "describe_table", "list_tables", "search_entity"]));
  });

  it("answers without saving runs, and says so when asked for sessions or runs it does not keep", async () => {
    const answer = await ferret.ask("What is the maximum frame size accepted by POST /v1/telemetry/frames?");
    expect(answer.status).toBe("answered");
    expect(answer.text).toContain("64");
    expect(await ferret.trace(answer.traceId)).toBeUndefined();
    await expect(ferret.runs()).rejects.toMatchObject({ name: "StoreError", message: expect.stringContaining("runs") });
    await expect(ferret.turns("s1")).rejects.toMatchObject({ message: "The sqlite store keeps no sessions." });
    await expect(ferret.ask("How do I reset my password?", { sessionId: "s1" })).rejects.toMatchObject({
      message: "The sqlite store keeps no sessions.",
    });
  });
});

describe("a store without vector search", () => {
  it("gets no vectors: the embedder is left out with a warning, ingest and search are keyword-only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ferret-novec-"));
    const store = await createSqliteStore({ path: join(dir, "ferret.db") });
    let embedded = 0;
    const embedder: EmbedderV1 = {
      specificationVersion: "v1",
      id: "test:counting",
      dimensions: () => 4,
      async embed(texts) {
        embedded += texts.length;
        return texts.map(() => Float32Array.from([1, 0, 0, 0]));
      },
    };
    const warnings: string[] = [];
    const ferret = await createFerret({
      store: declaring(store, ["documents", "keyword", "tables", "runs"]),
      embedder,
      principal: owner,
      onWarning: (m) => warnings.push(m),
    });
    try {
      expect(ferret.embedder).toBeUndefined();
      expect(warnings).toEqual([
        "the sqlite store has no vector search: embedder test:counting is not used; search is by keyword",
      ]);
      await ferret.ingest(ACME);
      const answer = await ferret.ask("What is the maximum frame size accepted by POST /v1/telemetry/frames?");
      expect(answer.text).toContain("64");
      expect(embedded).toBe(0);
      expect(await store.embedderInfo("acme")).toBeUndefined();
    } finally {
      await ferret.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the offline SQL planner writes the store's dialect", () => {
  it("takes the dialect from the store it runs against, not from a module of its own", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ferret-dialect-"));
    const store = await createSqliteStore({ path: join(dir, "ferret.db") });
    const written: string[] = [];
    const base = store.sqlDialect;
    const spy = Object.fromEntries(
      Object.entries(base).map(([name, fn]) => [
        name,
        (...args: never[]) => {
          const sql = (fn as (...a: never[]) => string)(...args);
          written.push(sql);
          return sql;
        },
      ]),
    ) as unknown as SqlDialect;
    const spied = new Proxy(store, {
      get(target, key) {
        if (key === "sqlDialect") return spy;
        const value = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const ferret = await createFerret({ store: spied, principal: owner, onWarning: () => {} });
    try {
      await ferret.ingest(ACME);
      // A breakdown by month: the month is the dialect's date prefix.
      const answer = await ferret.ask("How many support tickets got created per month?");
      expect(answer.status).not.toBe("refused");
      expect(answer.text).toContain("2026-03");
      const trace = await ferret.trace(answer.traceId);
      const sql = (trace?.events ?? [])
        .map((e) => e as { type?: string; call?: { tool?: string; args?: { sql?: unknown } } })
        .filter((e) => e.type === "tool-call-start" && e.call?.tool === "run_sql")
        .map((e) => String(e.call?.args?.sql));
      expect(written).toContain('substr("created_at", 1, 7)');
      expect(sql.some((q) => written.some((w) => q.includes(w)))).toBe(true);
    } finally {
      await ferret.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
