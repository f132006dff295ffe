/**
 * The keyword search as one function call (keyword-top.ts, schema version 8): the scope it sets ends with the
 * call, it sees what the principal may read and nothing else, it narrows as a query asks, and a query with a
 * phrase is still ranked (through the tsvectors).
 */
import pg from "pg";
import { expect, it } from "vitest";
import { acmeOwner, alice, harriet, ids, olga, seed } from "../../testing/fixtures.js";
import { queryTerms } from "../../text/tokenize.js";
import { rankTerms } from "./bm25.js";
import { createPostgresStore } from "./index.js";
import { APP_ROLE } from "./schema.js";
import { describeOnServers } from "./test-servers.js";

describeOnServers(
  (kind) => `keyword search in one call on ${kind}`,
  (server) => {
    it("sets the principal's scope for the call alone and returns only what it may read", async () => {
      const url = await (await server()).database();
      const store = await createPostgresStore({ url, poolSize: 2 });
      const client = new pg.Client({ connectionString: url });
      try {
        await seed(store);
        await client.connect();
        await client.query(`SET ROLE ${APP_ROLE}`);
        const call = async (principal: typeof alice, question: string) => {
          const terms = rankTerms(queryTerms(question));
          const rows = await client.query<{ doc_id: string }>(
            "SELECT doc_id FROM ferret.keyword_top($1, $2, $3, $4, 10, NULL, NULL, NULL, NULL)",
            [principal.tenant, principal.roles, terms.map((t) => t.tsquery), terms.map((t) => t.words)],
          );
          return rows.rows.map((r) => r.doc_id);
        };
        // The bonus note and the salary bands are hr's: harriet reads them, alice does not.
        expect(await call(harriet, "bonus salary vacation")).toEqual(
          expect.arrayContaining(["handbook/bonus.md", "salaries/2024.md"]),
        );
        const aliceHits = await call(alice, "bonus salary vacation");
        expect(aliceHits).toContain("handbook/vacation.md");
        expect(aliceHits).not.toContain("handbook/bonus.md");
        expect(aliceHits).not.toContain("salaries/2024.md");
        // Another tenant's owner sees its own vacation note only.
        expect(await call(olga, "vacation")).toEqual(["handbook/vacation.md"]);
        // The call was its own transaction: the scope it set is gone, so a plain read sees no chunk.
        const after = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM ferret.chunks");
        expect(after.rows[0]?.n).toBe(0);
        const setting = await client.query<{ t: string | null }>("SELECT current_setting('ferret.tenant', true) AS t");
        expect(setting.rows[0]?.t ?? "").toBe("");
      } finally {
        await client.end();
        await store.close();
      }
    }, 120_000);

    it("narrows by source, document and date, and still ranks a query with a phrase (through the tsvectors)", async () => {
      const url = await (await server()).database();
      const store = await createPostgresStore({ url, poolSize: 2 });
      try {
        await seed(store);
        const search = (extra: object, question = "vacation days bonus payroll") =>
          store.keywordSearch({ principal: acmeOwner, terms: queryTerms(question), k: 10, ...extra });
        const all = await search({});
        expect(new Set(all.map((c) => c.docId)).size).toBeGreaterThan(2);
        for (const [extra, keep] of [
          [{ sources: ["salaries"] }, (c: { source: string }) => c.source === "salaries"],
          [{ docId: "handbook/bonus.md" }, (c: { docId: string }) => c.docId === "handbook/bonus.md"],
          [{ docIds: ["handbook/vacation.md"] }, (c: { docId: string }) => c.docId === "handbook/vacation.md"],
          [{ since: "2024-04-01" }, (c: { updatedAt?: string }) => (c.updatedAt ?? "") >= "2024-04-01"],
        ] as const) {
          const narrowed = await search(extra);
          // Narrowing keeps the order and scores of the chunks it keeps (the statistics are the tenant's).
          const want = all.filter((c) => (keep as (c: object) => boolean)(c));
          expect(want.length, JSON.stringify(extra)).toBeGreaterThan(0);
          expect(ids(narrowed), JSON.stringify(extra)).toEqual(ids(want));
          expect(
            narrowed.map((c) => c.raw),
            JSON.stringify(extra),
          ).toEqual(want.map((c) => c.raw));
        }
        // A term of two words is a phrase: ranked by the tsvectors, in a transaction, and still found.
        const phrase = await store.keywordSearch({ principal: acmeOwner, terms: ["vacation days"], k: 5 });
        expect(phrase.map((c) => c.docId)).toContain("handbook/vacation.md");
      } finally {
        await store.close();
      }
    }, 120_000);
  },
);
