/**
 * The shared store suite: every StoreV1 adapter runs it (`runStoreSuite("sqlite", open)`), so all adapters
 * agree on replace semantics, filters, ACL and tenant isolation, read-only SQL, runs and sessions.
 * It builds its own small corpus and relies on nothing but the spec and the shared tokenizer.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Principal } from "../spec/principal.js";
import type { SourceRecord } from "../spec/source.js";
import type { StoreV1, TableWrite } from "../spec/store.js";
import {
  ACME,
  acmeOwner,
  alice,
  type FixtureDoc,
  fixtureWrite,
  GLOBEX,
  harriet,
  type OpenStore,
  olga,
} from "./store-fixtures.js";
import { runSourcesSuite } from "./store-suite-sources.js";

export { ACME, acmeOwner, alice, type FixtureDoc, fixtureWrite, GLOBEX, harriet, type OpenStore, olga };

const SOURCES: SourceRecord[] = [
  {
    name: "handbook",
    tenant: ACME,
    kind: "documents",
    description: "Employee handbook",
    acl: [],
    path: "docs/handbook",
  },
  { name: "salaries", tenant: ACME, kind: "documents", description: "Salary bands", acl: ["hr"] },
  { name: "handbook", tenant: GLOBEX, kind: "documents", description: "Globex handbook", acl: [] },
];

export const DOCS: FixtureDoc[] = [
  {
    id: "handbook/vacation.md",
    source: "handbook",
    title: "Vacation policy",
    section: ["Leave", "Vacation"],
    updatedAt: "2024-03-01",
    paragraphs: ["Employees receive 25 vacation days per year.", "Unused vacation days expire at the end of March."],
    vectors: [
      [1, 0, 0, 0],
      [0.9, 0.1, 0, 0],
    ],
  },
  {
    id: "handbook/security.md",
    source: "handbook",
    title: "Security",
    updatedAt: "2023-06-15",
    paragraphs: ["Rotate passwords every 90 days and wear the badge in the datacenter."],
    vectors: [[0, 1, 0, 0]],
  },
  {
    id: "handbook/bonus.md",
    source: "handbook",
    title: "Bonus plan",
    acl: ["hr"],
    updatedAt: "2024-05-01",
    paragraphs: ["The bonus pool is four percent of payroll; vacation payout counts toward it."],
    vectors: [[0, 0, 1, 0]],
  },
  {
    id: "salaries/2024.md",
    source: "salaries",
    title: "Salary bands 2024",
    updatedAt: "2024-01-10",
    paragraphs: ["Engineer salary bands rise three percent; vacation accrual is unchanged."],
    vectors: [[0, 0, 0, 1]],
  },
  {
    id: "handbook/vacation.md",
    source: "handbook",
    tenant: GLOBEX,
    title: "Globex vacation",
    updatedAt: "2024-02-02",
    paragraphs: ["Globex employees receive 10 vacation days."],
    vectors: [[1, 0, 0, 0]],
  },
];

export const TICKETS: TableWrite = {
  tenant: ACME,
  source: "tickets",
  file: "tickets.csv",
  schema: {
    name: "tickets",
    primaryKey: "ticket_id",
    columns: [
      { name: "ticket_id", type: "INTEGER" },
      { name: "title", type: "TEXT" },
      { name: "hours", type: "REAL" },
    ],
  },
  rows: [1, 2, 3, 4, 5].map((n) => ({ ticket_id: n, title: `Ticket ${n}`, hours: n * 1.5 })),
};

export const PAYROLL: TableWrite = {
  tenant: ACME,
  source: "payroll",
  file: "payroll.csv",
  schema: {
    name: "payroll",
    primaryKey: "employee",
    columns: [
      { name: "employee", type: "TEXT" },
      { name: "salary", type: "INTEGER" },
    ],
  },
  rows: [
    { employee: "alice", salary: 100 },
    { employee: "bob", salary: 120 },
  ],
};

/** Registers the sources, documents and tables above. */
export async function seed(store: StoreV1): Promise<void> {
  for (const source of SOURCES) await store.putSource(source);
  await store.putSource({
    name: "tickets",
    tenant: ACME,
    kind: "table",
    description: "Support tickets",
    acl: [],
    path: "tickets.csv",
  });
  await store.putSource({ name: "payroll", tenant: ACME, kind: "table", description: "Payroll", acl: ["hr"] });
  await store.writeDocuments(DOCS.map(fixtureWrite));
  await store.writeTable(TICKETS);
  await store.writeTable(PAYROLL);
}

const ids = (hits: { id: string }[]) => hits.map((hit) => hit.id);
const docIds = (hits: { docId: string }[]) => [...new Set(hits.map((hit) => hit.docId))].sort();

export function runStoreSuite(name: string, open: OpenStore): void {
  describe(`store suite: ${name}`, () => {
    let store: StoreV1;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
      await seed(store);
    });

    afterEach(async () => {
      await store.close();
      await cleanup();
    });

    const kw = (principal: Principal, terms: string[], extra: Record<string, unknown> = {}) =>
      store.keywordSearch({ principal, terms, k: 10, ...extra });
    const vec = (principal: Principal, vector: number[], extra: Record<string, unknown> = {}) =>
      store.vectorSearch({ principal, vector: Float32Array.from(vector), k: 10, strategy: "exact", ...extra });

    describe("sources", () => {
      it("lists only readable sources, with counts of readable documents and chunks", async () => {
        const forAlice = await store.listSources(alice);
        expect(forAlice.map((s) => s.name)).toEqual(["handbook", "tickets"]);
        const handbook = forAlice.find((s) => s.name === "handbook")!;
        expect(handbook).toMatchObject({
          documents: 2,
          chunks: 3,
          description: "Employee handbook",
          path: "docs/handbook",
        });

        const forHarriet = await store.listSources(harriet);
        expect(forHarriet.map((s) => s.name)).toEqual(["handbook", "payroll", "salaries", "tickets"]);
        expect(forHarriet.find((s) => s.name === "handbook")).toMatchObject({ documents: 3, chunks: 4 });
        expect(forHarriet.find((s) => s.name === "salaries")).toMatchObject({ documents: 1, chunks: 1, acl: ["hr"] });

        const forOlga = await store.listSources(olga);
        expect(forOlga).toHaveLength(1);
        expect(forOlga[0]).toMatchObject({ name: "handbook", tenant: GLOBEX, documents: 1, chunks: 1 });
      });

      it("reports the SQL schema of table sources", async () => {
        const tickets = (await store.listSources(alice)).find((s) => s.name === "tickets")!;
        expect(tickets.kind).toBe("table");
        expect(tickets.tables?.map((t) => [t.name, t.file])).toEqual([["tickets", "tickets.csv"]]);
        expect(tickets.tables?.[0]?.primaryKey).toBe("ticket_id");
        expect(tickets.tables?.[0]?.columns.map((c) => c.name)).toEqual(
          expect.arrayContaining(["ticket_id", "title", "hours"]),
        );
      });

      it("removes a source with its documents, chunks, vectors and table, leaving other tenants alone", async () => {
        await store.removeSource(ACME, "handbook");
        await store.removeSource(ACME, "tickets");
        expect((await store.listSources(acmeOwner)).map((s) => s.name)).toEqual(["payroll", "salaries"]);
        expect(await kw(acmeOwner, ["vacation"])).toSatisfy((hits: { source: string }[]) =>
          hits.every((h) => h.source === "salaries"),
        );
        expect(await vec(acmeOwner, [1, 0, 0, 0])).toSatisfy((hits: { source: string }[]) =>
          hits.every((h) => h.source === "salaries"),
        );
        expect(await store.documentHashes(ACME, "handbook")).toEqual(new Map());
        await expect(store.querySql("SELECT count(*) AS n FROM tickets", acmeOwner)).rejects.toMatchObject({
          name: "SqlInvalidError",
          missingTable: "tickets",
        });
        expect(docIds(await kw(olga, ["vacation"]))).toEqual(["handbook/vacation.md"]);
      });
    });

    describe("documents", () => {
      it("returns content hashes per tenant and source", async () => {
        const hashes = await store.documentHashes(ACME, "handbook");
        expect([...hashes.keys()].sort()).toEqual([
          "handbook/bonus.md",
          "handbook/security.md",
          "handbook/vacation.md",
        ]);
        expect(hashes.get("handbook/vacation.md")).toBe(fixtureWrite(DOCS[0]!).doc.contentHash);
        expect((await store.documentHashes(GLOBEX, "handbook")).size).toBe(1);
      });

      it("replaces a document's previous version and all its chunks", async () => {
        const v2 = fixtureWrite({
          ...DOCS[0]!,
          paragraphs: ["Employees now receive 30 holiday days."],
          vectors: [[0, 0, 1, 1]],
        });
        await store.writeDocuments([v2]);
        expect(await kw(acmeOwner, ["expire"])).toEqual([]);
        expect(ids(await kw(acmeOwner, ["holiday"]))).toEqual(["handbook/vacation.md::0"]);
        expect(await store.getChunks(["handbook/vacation.md::0", "handbook/vacation.md::1"], acmeOwner)).toHaveLength(
          1,
        );
        expect((await store.getDocument("handbook/vacation.md", acmeOwner))?.text).toBe(
          "Employees now receive 30 holiday days.",
        );
        expect((await store.documentHashes(ACME, "handbook")).get("handbook/vacation.md")).toBe(v2.doc.contentHash);
        const vectors = await vec(acmeOwner, [0, 0, 1, 1], { docId: "handbook/vacation.md" });
        expect(vectors).toHaveLength(1);
        expect(vectors[0]!.score).toBeCloseTo(1, 4);
        expect((await store.listSources(acmeOwner)).find((s) => s.name === "handbook")?.chunks).toBe(3);
      });

      it("removes documents with their chunks and vectors", async () => {
        await store.removeDocuments(ACME, ["handbook/security.md"], { source: "handbook" });
        expect(await store.getDocument("handbook/security.md", acmeOwner)).toBeUndefined();
        expect(await kw(acmeOwner, ["passwords"])).toEqual([]);
        expect(ids(await vec(acmeOwner, [0, 1, 0, 0], { k: 1 }))).not.toContain("handbook/security.md::0");
        expect(await store.getDocument("handbook/vacation.md", olga)).toBeDefined();
      });

      it("reads a document only within the tenant and ACL", async () => {
        const own = await store.getDocument("handbook/vacation.md", alice);
        expect(own).toMatchObject({
          title: "Vacation policy",
          tenant: ACME,
          updatedAt: "2024-03-01",
          metadata: { fixture: true },
        });
        expect(await store.getDocument("handbook/bonus.md", alice)).toBeUndefined();
        expect(await store.getDocument("salaries/2024.md", alice)).toBeUndefined();
        expect((await store.getDocument("handbook/bonus.md", harriet))?.acl).toEqual(["hr"]);
        expect((await store.getDocument("handbook/vacation.md", olga))?.title).toBe("Globex vacation");
        expect(await store.getDocument("handbook/security.md", olga)).toBeUndefined();
      });

      it("returns chunks in the order asked, leaving out unreadable ones", async () => {
        const asked = [
          "handbook/vacation.md::1",
          "handbook/bonus.md::0",
          "salaries/2024.md::0",
          "handbook/vacation.md::0",
        ];
        expect(ids(await store.getChunks(asked, alice))).toEqual([
          "handbook/vacation.md::1",
          "handbook/vacation.md::0",
        ]);
        expect(ids(await store.getChunks(asked, harriet))).toEqual(asked);
        const [chunk] = await store.getChunks(["handbook/vacation.md::1"], alice);
        const doc = await store.getDocument("handbook/vacation.md", alice);
        expect(doc!.text.slice(chunk!.start, chunk!.end)).toBe(chunk!.text);
        expect(chunk).toMatchObject({ docId: "handbook/vacation.md", ordinal: 1, section: ["Leave", "Vacation"] });
        expect(chunk!.searchText).toContain("unused");
        const [globex] = await store.getChunks(["handbook/vacation.md::0"], olga);
        expect(globex!.text).toContain("Globex");
      });
    });

    describe("keyword search", () => {
      it("ranks with BM25 and returns positive raw scores with passage fields", async () => {
        const hits = await kw(acmeOwner, ["passwords", "badge"]);
        expect(hits[0]).toMatchObject({
          id: "handbook/security.md::0",
          docId: "handbook/security.md",
          source: "handbook",
          title: "Security",
          updatedAt: "2023-06-15",
        });
        expect(hits[0]!.raw).toBeGreaterThan(0);
        expect(hits[0]!.score).toBe(hits[0]!.raw);
        const vacation = (await kw(acmeOwner, ["expire"]))[0]!;
        expect(vacation.section).toBe("Leave > Vacation");
        expect(vacation.text).toBe("Unused vacation days expire at the end of March.");
        const first = DOCS[0]!.paragraphs[0]!;
        expect([vacation.start, vacation.end]).toEqual([first.length + 2, first.length + 2 + vacation.text.length]);
        const scores = (await kw(acmeOwner, ["vacation"])).map((h) => h.raw);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
      });

      it("weights title matches above body matches", async () => {
        const hits = await kw(acmeOwner, ["security", "payroll"]);
        expect(hits[0]!.docId).toBe("handbook/security.md");
      });

      it("matches other inflections and treats query syntax as plain words", async () => {
        expect(ids(await kw(acmeOwner, ["expiring"]))).toEqual(["handbook/vacation.md::1"]);
        expect(await kw(acmeOwner, ['"', "NEAR(", "*", "OR", "NOT", "col:x", "^"])).toEqual([]);
        expect(await kw(acmeOwner, [])).toEqual([]);
      });

      it("applies document and source ACLs inside the search", async () => {
        expect(docIds(await kw(alice, ["vacation"]))).toEqual(["handbook/vacation.md"]);
        expect(docIds(await kw(harriet, ["vacation"]))).toEqual([
          "handbook/bonus.md",
          "handbook/vacation.md",
          "salaries/2024.md",
        ]);
        expect(await kw(alice, ["bonus", "salary"])).toEqual([]);
        expect(docIds(await kw(alice, ["vacation"], { k: 1 }))).toEqual(["handbook/vacation.md"]);
      });

      it("never crosses tenants", async () => {
        const hits = await kw(olga, ["vacation", "passwords", "bonus"]);
        expect(hits.map((h) => h.text)).toEqual(["Globex employees receive 10 vacation days."]);
        expect((await kw(acmeOwner, ["globex"])).length).toBe(0);
      });

      it("filters by sources, document and date", async () => {
        expect(docIds(await kw(harriet, ["vacation"], { sources: ["salaries"] }))).toEqual(["salaries/2024.md"]);
        expect(docIds(await kw(alice, ["vacation"], { sources: ["salaries"] }))).toEqual([]);
        expect(ids(await kw(acmeOwner, ["vacation"], { docId: "handbook/vacation.md" })).sort()).toEqual([
          "handbook/vacation.md::0",
          "handbook/vacation.md::1",
        ]);
        expect(docIds(await kw(acmeOwner, ["vacation"], { since: "2024-02-01" }))).toEqual([
          "handbook/bonus.md",
          "handbook/vacation.md",
        ]);
      });
    });

    describe("vector search", () => {
      it("finds nearest chunks by cosine similarity", async () => {
        const hits = await vec(acmeOwner, [1, 0.05, 0, 0], { k: 2 });
        expect(ids(hits)).toEqual(["handbook/vacation.md::0", "handbook/vacation.md::1"]);
        expect(hits[0]!.score).toBeCloseTo(1 / Math.hypot(1, 0.05), 4);
        expect(hits[0]!.raw).toBe(hits[0]!.score);
        expect(hits[0]).toMatchObject({
          title: "Vacation policy",
          section: "Leave > Vacation",
          updatedAt: "2024-03-01",
        });
        const approximate = await vec(acmeOwner, [1, 0.05, 0, 0], { k: 2, strategy: "approximate" });
        expect(ids(approximate)).toEqual(ids(hits));
      });

      it("applies ACLs and tenants inside the search, even when k is small", async () => {
        for (const strategy of ["exact", "approximate"] as const) {
          const nearBonus = await vec(alice, [0, 0, 1, 0], { k: 1, strategy });
          expect(nearBonus).toHaveLength(1);
          expect(nearBonus[0]!.docId).not.toBe("handbook/bonus.md");
          expect(docIds(await vec(alice, [0, 0, 0.5, 0.5], { strategy }))).toEqual([
            "handbook/security.md",
            "handbook/vacation.md",
          ]);
          expect((await vec(harriet, [0, 0, 1, 0], { k: 1, strategy }))[0]!.docId).toBe("handbook/bonus.md");
          expect((await vec(olga, [0, 0, 1, 0], { strategy })).map((h) => h.text)).toEqual([
            "Globex employees receive 10 vacation days.",
          ]);
        }
      });

      it("filters by sources, document and date", async () => {
        expect(docIds(await vec(harriet, [1, 0, 0, 0], { sources: ["salaries"] }))).toEqual(["salaries/2024.md"]);
        expect(docIds(await vec(acmeOwner, [1, 0, 0, 0], { docId: "handbook/security.md" }))).toEqual([
          "handbook/security.md",
        ]);
        expect(docIds(await vec(acmeOwner, [1, 0, 0, 0], { since: "2024-02-01" }))).toEqual([
          "handbook/bonus.md",
          "handbook/vacation.md",
        ]);
      });

      it("refuses vectors of another dimension and writes nothing from that batch", async () => {
        const good = fixtureWrite({
          id: "handbook/new.md",
          source: "handbook",
          title: "New",
          paragraphs: ["fresh words"],
          vectors: [[1, 1, 0, 0]],
        });
        const bad = fixtureWrite({
          id: "handbook/wide.md",
          source: "handbook",
          title: "Wide",
          paragraphs: ["wide words"],
          vectors: [[1, 0, 0, 0, 0, 0, 0, 0]],
        });
        await expect(store.writeDocuments([good, bad])).rejects.toMatchObject({ name: "EmbedderMismatchError" });
        await expect(store.writeDocuments([bad])).rejects.toThrow(/new --db|same embedder/);
        expect(await store.getDocument("handbook/new.md", acmeOwner)).toBeUndefined();
        expect(await kw(acmeOwner, ["fresh", "wide"])).toEqual([]);
        const otherTenant = fixtureWrite({ ...DOCS[4]!, tenant: "initech", vectors: [[1, 0, 0, 0, 0, 0, 0, 0]] });
        await store.writeDocuments([otherTenant]);
        expect(
          (
            await store.vectorSearch({
              principal: { ...olga, tenant: "initech" },
              vector: new Float32Array(8).fill(1),
              k: 1,
            })
          ).length,
        ).toBe(1);
      });

      it("records the embedder per tenant and refuses a different one once vectors exist", async () => {
        expect(await store.embedderInfo(ACME)).toBeUndefined();
        await store.setEmbedderInfo(ACME, { id: "test:four", dimensions: 4 });
        expect(await store.embedderInfo(ACME)).toEqual({ id: "test:four", dimensions: 4 });
        expect(await store.embedderInfo(GLOBEX)).toBeUndefined();
        await expect(store.setEmbedderInfo(ACME, { id: "test:eight", dimensions: 8 })).rejects.toMatchObject({
          name: "EmbedderMismatchError",
        });
        expect(await store.embedderInfo(ACME)).toEqual({ id: "test:four", dimensions: 4 });
      });

      it("skips chunks without vectors", async () => {
        await store.writeDocuments([
          fixtureWrite({ id: "handbook/plain.md", source: "handbook", title: "Plain", paragraphs: ["no vector here"] }),
        ]);
        expect(ids(await kw(acmeOwner, ["vector"]))).toEqual(["handbook/plain.md::0"]);
        expect(docIds(await vec(acmeOwner, [1, 1, 1, 1], { k: 20 }))).not.toContain("handbook/plain.md");
      });
    });

    describe("embedding cache", () => {
      it("returns cached vectors by model and content hash", async () => {
        await store.cacheEmbeddings(
          "m1",
          new Map([
            ["h1", Float32Array.from([0.5, 0.25])],
            ["h2", Float32Array.from([1, 2])],
          ]),
        );
        const hits = await store.cachedEmbeddings("m1", ["h1", "h3"]);
        expect([...hits.keys()]).toEqual(["h1"]);
        expect([...hits.get("h1")!]).toEqual([0.5, 0.25]);
        expect((await store.cachedEmbeddings("m2", ["h1", "h2"])).size).toBe(0);
      });
    });

    describe("read-only SQL over table sources", () => {
      it("queries tables by source name, with citable row ids", async () => {
        const result = await store.querySql("SELECT count(*) AS n FROM tickets", alice);
        expect(result).toEqual({ columns: ["n"], rows: [{ n: 5 }], truncated: false });
        const row = await store.querySql("SELECT ticket_id, title, hours, _id FROM tickets WHERE ticket_id = 2", alice);
        expect(row.rows).toEqual([{ ticket_id: 2, title: "Ticket 2", hours: 3, _id: "tickets.csv#2" }]);
      });

      it("replaces a table when written again", async () => {
        await store.writeTable({ ...TICKETS, rows: TICKETS.rows.slice(0, 2) });
        expect((await store.querySql("SELECT count(*) AS n FROM tickets", alice)).rows).toEqual([{ n: 2 }]);
      });

      it("shows a principal only the tables it may read", async () => {
        await expect(store.querySql("SELECT * FROM payroll", alice)).rejects.toMatchObject({
          name: "SqlInvalidError",
          reason: "missing_table",
          missingTable: "payroll",
        });
        expect((await store.querySql("SELECT salary FROM payroll ORDER BY salary", harriet)).rows).toEqual([
          { salary: 100 },
          { salary: 120 },
        ]);
        await expect(store.querySql("SELECT * FROM tickets", olga)).rejects.toMatchObject({
          name: "SqlInvalidError",
          missingTable: "tickets",
        });
      });

      it("refuses anything but one read-only SELECT and leaves the table unchanged", async () => {
        const attempts = [
          "DROP TABLE tickets",
          "UPDATE tickets SET hours = 0",
          "INSERT INTO tickets (ticket_id, title, hours) VALUES (9, 'x', 1)",
          "DELETE FROM tickets",
          "CREATE TABLE evil (x)",
          "ATTACH DATABASE 'evil.db' AS evil",
          "PRAGMA writable_schema = 1",
          "SELECT 1; DELETE FROM tickets",
          "SELECT * FROM tickets; SELECT 2",
          "",
        ];
        for (const sql of attempts) {
          await expect(store.querySql(sql, acmeOwner), sql).rejects.toMatchObject({ name: "SqlRejectedError" });
        }
        const after = await store.querySql("SELECT count(*) AS n, sum(hours) AS h FROM tickets", acmeOwner);
        expect(after.rows).toEqual([{ n: 5, h: 22.5 }]);
      });

      it("truncates at maxRows and says so", async () => {
        const limited = await store.querySql("SELECT ticket_id FROM tickets ORDER BY ticket_id", alice, { maxRows: 2 });
        expect(limited).toEqual({
          columns: ["ticket_id"],
          rows: [{ ticket_id: 1 }, { ticket_id: 2 }],
          truncated: true,
          truncatedBy: "rows",
        });
        expect((await store.querySql("SELECT ticket_id FROM tickets", alice, { maxRows: 5 })).truncated).toBe(false);
      });

      it("stops a runaway query at its time limit", async () => {
        const runaway =
          "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 50000000) SELECT x FROM n";
        await expect(store.querySql(runaway, alice, { maxRows: 100_000_000, timeoutMs: 1 })).rejects.toMatchObject({
          name: "SqlTimeoutError",
          timeoutMs: 1,
        });
      });

      it("names an unknown column and a syntax error as typed errors", async () => {
        await expect(store.querySql("SELECT colour FROM tickets", alice)).rejects.toMatchObject({
          name: "SqlInvalidError",
          category: "user",
          reason: "missing_column",
          column: "colour",
        });
        await expect(store.querySql("SELECT title FROM tickets WHERE", alice)).rejects.toMatchObject({
          name: "SqlInvalidError",
          reason: "invalid",
        });
      });
    });

    describe("SQL that can be stopped", () => {
      /** 400 rows: joins of three or four copies run for minutes. */
      const BIG: TableWrite = {
        tenant: ACME,
        source: "big",
        file: "big.csv",
        schema: {
          name: "big",
          primaryKey: "n",
          columns: [
            { name: "n", type: "INTEGER" },
            { name: "label", type: "TEXT" },
          ],
        },
        rows: Array.from({ length: 400 }, (_, n) => ({ n, label: `label number ${n}` })),
      };
      const RUNAWAYS: [string, string][] = [
        ["a recursive CTE", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"],
        ["a cross join", "SELECT count(*) FROM big a, big b, big c, big d"],
        [
          "an ORDER BY over a huge join",
          "SELECT a.label || b.label || c.label AS k FROM big a, big b, big c ORDER BY k",
        ],
      ];

      beforeEach(async () => {
        await store.putSource({ name: "big", tenant: ACME, kind: "table", description: "Big", acl: [] });
        await store.writeTable(BIG);
      });

      for (const [shape, runaway] of RUNAWAYS) {
        it(`stops ${shape} at its time limit while the store keeps answering`, async () => {
          const order: string[] = [];
          const query = store.querySql(runaway, alice, { timeoutMs: 1500 }).then(
            () => order.push("sql finished"),
            (error: Error) => order.push(`sql ${error.name}`),
          );
          // Asked after the query started: answers while it runs (the old store blocked here for ever).
          const hits = await kw(alice, ["vacation"]);
          order.push("search");
          expect(hits.length).toBeGreaterThan(0);
          await query;
          expect(order).toEqual(["search", "sql SqlTimeoutError"]);
          // The next query gets a fresh runner.
          expect((await store.querySql("SELECT count(*) AS n FROM big", alice)).rows).toEqual([{ n: 400 }]);
        });
      }

      it("stops a query when its caller aborts", async () => {
        const controller = new AbortController();
        const query = store.querySql(RUNAWAYS[0]![1], alice, { timeoutMs: 60_000, signal: controller.signal });
        await kw(alice, ["vacation"]);
        controller.abort(new Error("caller gave up"));
        await expect(query).rejects.toThrow("caller gave up");
        expect((await store.querySql("SELECT count(*) AS n FROM big", alice)).rows).toEqual([{ n: 400 }]);
      });
    });

    describe("runs and sessions", () => {
      const run = {
        runId: "run-1",
        tenant: ACME,
        user: "alice",
        question: "How many days?",
        startedAt: "2024-06-01T10:00:00Z",
        events: [{ type: "run-start" }],
        answer: { status: "answered" },
        sources: ["handbook", "tickets"],
      };

      it("keeps runs within their tenant and user", async () => {
        await store.saveRun(run);
        expect(await store.getRun("run-1", alice)).toEqual(run);
        expect(await store.getRun("run-1", acmeOwner)).toEqual(run);
        expect(await store.getRun("run-1", harriet)).toBeUndefined();
        expect(await store.getRun("run-1", olga)).toBeUndefined();
        expect(await store.getRun("nope", alice)).toBeUndefined();
        await store.saveRun({ ...run, events: [...run.events, { type: "run-end" }] });
        expect((await store.getRun("run-1", alice))?.events).toHaveLength(2);
        await expect(store.saveRun({ ...run, tenant: GLOBEX, user: "olga" })).rejects.toThrow();
        expect((await store.getRun("run-1", alice))?.tenant).toBe(ACME);
      });

      it("appends session turns per tenant, user and session", async () => {
        const turn = (content: string, role: "user" | "assistant" = "user") => ({
          role,
          content,
          at: "2024-06-01T10:00:00Z",
        });
        await store.appendTurns("s1", alice, [turn("hi"), turn("hello", "assistant")]);
        await store.appendTurns("s1", alice, [turn("more")]);
        await store.appendTurns("s1", harriet, [turn("other user")]);
        expect((await store.getTurns("s1", alice)).map((t) => t.content)).toEqual(["hi", "hello", "more"]);
        expect((await store.getTurns("s1", alice))[1]).toEqual(turn("hello", "assistant"));
        expect((await store.getTurns("s1", harriet)).map((t) => t.content)).toEqual(["other user"]);
        expect(await store.getTurns("s1", { ...alice, tenant: GLOBEX })).toEqual([]);
        expect(await store.getTurns("s2", alice)).toEqual([]);
      });
    });
  });
  runSourcesSuite(name, open);
}
