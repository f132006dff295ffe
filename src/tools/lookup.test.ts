import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestPath } from "../ingest/index.js";
import { createRetriever } from "../retrieval/index.js";
import type { Principal } from "../spec/principal.js";
import { createSqliteStore, type SqliteStore } from "../stores/sqlite/index.js";
import type { ToolContext } from "./define-tool.js";
import { executeToolCall } from "./execute-tool-call.js";
import { stemCoverage } from "./lookup.js";
import { createToolset } from "./toolset.js";

// A made-up network: a depot directory, an orders table whose every row names a depot, and event records.
const DIRECTORY = [
  "# Depot register",
  "",
  "| Code | Site | Depot manager |",
  "|---|---|---|",
  "| ZQ | Zuidkade North | Ilse Marnix |",
  "| VX | Vorstadt East | Otto Brinkhaus |",
  "",
].join("\n");
const PICKING = "# Picking rules\n\nOrders picked at ZQ are packed the same day. VX packs overnight.\n";
const QZ9 =
  "# QZ-9\n\nThe QZ-9 sorter line.\n\n## Hours\n\nQZ-9 runs from 06:00.\n\n## Staff\n\nQZ-9 needs two operators.\n";
const ORDERS = [
  "order_id,depot,weight_kg",
  ...Array.from({ length: 40 }, (_, i) => `QO-${String(100 + i)},${i % 2 ? "VX" : "ZQ"},${10 + i}`),
].join("\n");
const EVENTS = [
  { id: "EV-7", title: "Door jammed", text: "A roller door jammed during loading.", site: "ZQ" },
  { id: "EV-8", title: "Pallet tipped", text: "A pallet tipped over in aisle 3.", site: "VX" },
]
  .map((e) => JSON.stringify(e))
  .join("\n");

const OWNER: Principal = { tenant: "t", user: "u", roles: ["*"] };
let dir: string;
let store: SqliteStore;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ferret-lookup-"));
  await mkdir(join(dir, "guides"));
  await writeFile(join(dir, "guides", "depot-register.md"), DIRECTORY);
  await writeFile(join(dir, "guides", "picking.md"), PICKING);
  await writeFile(join(dir, "guides", "QZ-9.md"), QZ9);
  await writeFile(join(dir, "orders.csv"), ORDERS);
  await writeFile(join(dir, "events.jsonl"), EVENTS);
  await writeFile(
    join(dir, "sources.json"),
    JSON.stringify([
      { name: "guides", kind: "documents", path: "guides", description: "Depot register and picking rules" },
      { name: "orders", kind: "table", path: "orders.csv", description: "Orders by depot" },
      { name: "events", kind: "jsonl", path: "events.jsonl", description: "Site events" },
    ]),
  );
  store = await createSqliteStore({ path: join(dir, "ferret.db") });
  await ingestPath({ store, path: dir, tenant: "t" });
});

afterAll(async () => {
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

async function lookup(args: Record<string, unknown>) {
  const sources = await store.listSources(OWNER);
  const ctx: ToolContext = {
    principal: OWNER,
    retriever: createRetriever({ store }),
    store,
    sources,
    signal: new AbortController().signal,
  };
  return executeToolCall(createToolset({ sources }), { tool: "lookup", args }, ctx);
}

describe("lookup", () => {
  it("finds the directory row a code heads, not the twenty orders and the rule that mention it", async () => {
    const result = await lookup({ key: "ZQ" });
    expect(result.status).toBe("ok");
    expect(result.passages?.map((p) => p.docId)).toEqual(["guides/depot-register.md"]);
  });

  it("finds a record by its own key, in a table and in a JSONL file, first", async () => {
    expect((await lookup({ key: "QO-117" })).passages?.[0]?.docId).toBe("orders.csv#QO-117");
    const event = await lookup({ key: "EV-8" });
    expect(event.passages?.[0]).toMatchObject({ docId: "events.jsonl#EV-8", score: 1 });
  });

  it("gives one entry per document, the chunk of a page named by the key that fits the words best", async () => {
    const result = await lookup({ key: "QZ-9", query: "operators" });
    expect(result.passages?.map((p) => p.docId)).toEqual(["guides/QZ-9.md"]);
    expect(result.passages?.[0]?.text).toContain("two operators");
  });

  it("says so when nothing is keyed by the value, and stays in the corpus it is given", async () => {
    const none = await lookup({ key: "aisle" });
    expect(none.status).toBe("no_results");
    expect(none.hint).toContain("keyed by 'aisle'");
    expect((await lookup({ key: "ZQ", corpus: "events" })).status).toBe("no_results");
  });

  it("ranks entries by the words asked about, matching a verb to a column's noun", async () => {
    expect(stemCoverage(["manages", "depot"], "| Code | Site | Depot manager |")).toBe(1);
    expect(stemCoverage(["weight"], "| Code | Site |")).toBe(0);
    const ranked = await lookup({ key: "VX", query: "who manages it" });
    expect(ranked.passages?.[0]?.docId).toBe("guides/depot-register.md");
  });
});
