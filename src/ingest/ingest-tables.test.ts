import { mkdir, mkdtemp, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeTableFolder } from "../../test/fixtures/hostile/csv-tables.js";
import { writeSamePathFolders } from "../../test/fixtures/hostile/same-relative-path.js";
import type { Principal } from "../spec/principal.js";
import { createSqliteStore, type SqliteStore } from "../stores/sqlite/index.js";
import { ingestPath } from "./ingest.js";

const TENANT = "acme";
const OWNER: Principal = { tenant: TENANT, user: "o", roles: ["*"] };
const STAFF: Principal = { tenant: TENANT, user: "s", roles: ["staff"] };
const HR: Principal = { tenant: TENANT, user: "h", roles: ["staff", "hr"] };

let dir: string;
let store: SqliteStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ferret-ingest-tables-"));
  store = await createSqliteStore({ path: join(dir, "ferret.db") });
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const tablesOf = async (principal = OWNER) =>
  (await store.listSources(principal)).flatMap((s) => (s.tables ?? []).map((t) => `${s.name}:${t.name}:${t.file}`));

describe("CSV files in a documents folder", () => {
  it("makes each good CSV its own table; reports bad ones and ingests everything else", async () => {
    const folder = await writeTableFolder(join(dir, "mixed"));
    const summary = await ingestPath({ store, path: folder.dir, tenant: TENANT, source: "mixed" });

    expect(Object.fromEntries(summary.failed.map((f) => [f.file, f.reason]))).toEqual(
      Object.fromEntries(
        Object.keys(folder.failed).map((file) => [file, expect.stringContaining(folder.failed[file]!)]),
      ),
    );
    expect(Object.fromEntries(summary.skipped.map((f) => [f.file, f.reason]))).toEqual(
      Object.fromEntries(
        Object.keys(folder.skipped).map((file) => [file, expect.stringContaining(folder.skipped[file]!)]),
      ),
    );
    expect(await tablesOf()).toEqual(
      Object.entries(folder.good)
        .map(([file, name]) => `mixed:${name}:${file}`)
        .sort((a, b) => (a < b ? -1 : 1)),
    );
    // Renamed columns are warnings, not failures.
    expect(summary.warnings.filter((w) => w.file === "people.csv").map((w) => w.message)).toHaveLength(6);
    const sql = async (query: string) => (await store.querySql(query, OWNER)).rows;
    expect(await sql("SELECT order_id, amount, _id FROM orders_2026 ORDER BY order_id")).toEqual([
      { order_id: "O-1", amount: 10, _id: "Orders 2026.csv#O-1" },
      { order_id: "O-2", amount: 12.5, _id: "Orders 2026.csv#O-2" },
    ]);
    expect(await sql("SELECT refund_id, _id FROM refunds")).toEqual([{ refund_id: "R-1", _id: "sub/refunds.csv#R-1" }]);
    expect(await sql('SELECT id, "_id_2", _id FROM people ORDER BY id')).toEqual([
      { id: 1, _id_2: "x1", _id: "people.csv#1" },
      { id: 2, _id_2: "x2", _id: "people.csv#2" },
    ]);
    // Markdown and the good CSVs' rows are documents; nothing of the bad files is.
    const ids = [...(await store.documentHashes(TENANT, "mixed")).keys()].sort();
    expect(ids).toEqual([
      "Orders 2026.csv#O-1",
      "Orders 2026.csv#O-2",
      "notes.md",
      "people.csv#1",
      "people.csv#2",
      "sub/refunds.csv#R-1",
      "sub/更多.md",
    ]);
    expect(summary.added).toBe(7);
    const hits = await store.keywordSearch({ principal: OWNER, terms: ["退款"], k: 3 });
    expect(hits.map((h) => h.docId)).toEqual(["sub/更多.md"]);
  });

  it("keeps a table whose file later fails, drops the table of a deleted file on prune", async () => {
    const folder = join(dir, "f");
    await mkdir(folder);
    await writeFile(join(folder, "a.csv"), "id,v\n1,x\n");
    await writeFile(join(folder, "b.csv"), "id,v\n1,y\n");
    await ingestPath({ store, path: folder, tenant: TENANT, source: "f" });
    await writeFile(join(folder, "a.csv"), "id,v\n1,x\n1,again\n");
    await unlink(join(folder, "b.csv"));
    const summary = await ingestPath({ store, path: folder, tenant: TENANT, source: "f", prune: true });
    expect(summary.failed.map((f) => f.file)).toEqual(["a.csv"]);
    expect(await tablesOf()).toEqual(["f:a:a.csv"]);
    expect((await store.querySql("SELECT v FROM a", OWNER)).rows).toEqual([{ v: "x" }]);
    expect([...(await store.documentHashes(TENANT, "f")).keys()]).toEqual(["a.csv#1"]);
  });

  it("names a table source's one CSV after the source, whatever its file is called", async () => {
    const file = join(dir, "Support Tickets.csv");
    await writeFile(file, "ticket_id,title\nT-1,Gateway timeout\n");
    await ingestPath({ store, path: file, tenant: TENANT, source: "tickets" });
    expect(await tablesOf()).toEqual(["tickets:tickets:Support Tickets.csv"]);
    const renamed = join(dir, "tickets-2026.csv");
    await writeFile(renamed, "ticket_id,title\nT-2,Refund stuck\n");
    await ingestPath({ store, path: renamed, tenant: TENANT, source: "tickets" });
    // Still one table for the source, under its name, now holding the new file's rows.
    expect(await tablesOf()).toEqual(["tickets:tickets:tickets-2026.csv"]);
    expect((await store.querySql("SELECT _id FROM tickets", OWNER)).rows).toEqual([{ _id: "tickets-2026.csv#T-2" }]);
  });
});

describe("two sources holding the same relative paths", () => {
  it("keeps both documents and both tables, each under its own ACL, and prunes only its own", async () => {
    const folders = await writeSamePathFolders(dir);
    await ingestPath({ store, path: folders.a, tenant: TENANT, source: "a" });
    const b = await ingestPath({ store, path: folders.b, tenant: TENANT, source: "b", acl: ["hr"] });
    expect(b.warnings).toEqual([
      { file: "data/orders.csv", message: 'table name "orders" is taken in this tenant; the table is "orders_2"' },
    ]);
    expect(await tablesOf()).toEqual(["a:orders:data/orders.csv", "b:orders_2:data/orders.csv"]);

    const found = async (principal: Principal) =>
      (await store.keywordSearch({ principal, terms: ["pump", "serviced"], k: 10 }))
        .filter((h) => h.docId === "README.md")
        .map((h) => `${h.source}: ${h.text.split("\n").at(-1)}`)
        .sort();
    expect(await found(HR)).toEqual([`a: ${folders.aSays}`, `b: ${folders.bSays}`]);
    expect(await found(STAFF)).toEqual([`a: ${folders.aSays}`]);
    expect((await store.querySql("SELECT pump FROM orders_2", HR)).rows).toEqual([{ pump: "b" }]);
    await expect(store.querySql("SELECT pump FROM orders_2", STAFF)).rejects.toMatchObject({
      name: "SqlInvalidError",
      missingTable: "orders_2",
    });

    // Re-ingesting b after its README is deleted prunes b's README only.
    await unlink(join(folders.b, "README.md"));
    const pruned = await ingestPath({ store, path: folders.b, tenant: TENANT, source: "b", acl: ["hr"], prune: true });
    expect(pruned.removed).toBe(1);
    expect(await found(HR)).toEqual([`a: ${folders.aSays}`]);
    expect((await store.getDocument("README.md", OWNER, { source: "a" }))?.text).toContain(folders.aSays);
    expect(await tablesOf()).toEqual(["a:orders:data/orders.csv", "b:orders_2:data/orders.csv"]);
  });
});
