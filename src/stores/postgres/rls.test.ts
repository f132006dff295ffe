/**
 * Row-level security as the last line: queries that leave out the store's tenant and ACL predicates (as a
 * bug, or a hand-written report) still see only what the transaction's principal may read, and run_sql
 * reaches nothing but the principal's own tables.
 */
import pg from "pg";
import { expect, it } from "vitest";
import { ACME, alice, GLOBEX, harriet, olga, seed } from "../../testing/fixtures.js";
import { principalScope, scopeStatement, setScope, writeScope } from "./db.js";
import { createPostgresStore, type PostgresStore } from "./index.js";
import { APP_ROLE } from "./schema.js";
import { tenantSchema } from "./tables.js";
import { describeOnServers } from "./test-servers.js";

describeOnServers(
  (kind) => `row-level security on ${kind}`,
  (server, kind) => {
    /** A seeded store, and a raw connection as the role the store's connections use. */
    async function open(): Promise<{ store: PostgresStore; raw: pg.Client; close: () => Promise<void> }> {
      const url = await (await server()).database();
      const store = await createPostgresStore({ url, poolSize: 2 });
      await seed(store);
      const raw = new pg.Client({ connectionString: url });
      await raw.connect();
      await raw.query(`SET ROLE ${APP_ROLE}`);
      return {
        store,
        raw,
        close: async () => {
          await raw.query("RESET ROLE").catch(() => {});
          await raw.end();
          await store.close();
        },
      };
    }

    /** Rows of `sql` in a transaction scoped to `scope` (no scope: nothing set, as a forgetful caller). */
    async function scoped(raw: pg.Client, scope: Parameters<typeof setScope>[1] | undefined, sql: string) {
      await raw.query("BEGIN");
      try {
        if (scope) await setScope(raw, scope);
        return (await raw.query(sql)).rows;
      } finally {
        await raw.query("ROLLBACK");
      }
    }

    it("the scope sent after BEGIN as literals sets what the parameterised statement sets, for hostile names", async () => {
      const { raw, close } = await open();
      const read =
        "SELECT current_setting('ferret.tenant', true) AS tenant, current_setting('ferret.roles', true) AS roles, current_setting('ferret.all_tenants', true) AS all_tenants";
      try {
        for (const scope of [
          { tenant: "o'brien\\x", roles: ['a"b', "c,d", "{e}", "f'g\\", ""] },
          { tenant: "", roles: [] },
          { allTenants: true, roles: ["*"] },
        ]) {
          await raw.query(`BEGIN; ${scopeStatement(scope)}`);
          const literal = (await raw.query(read)).rows[0];
          await raw.query("ROLLBACK");
          await raw.query("BEGIN");
          await setScope(raw, scope);
          const bound = (await raw.query(read)).rows[0];
          await raw.query("ROLLBACK");
          expect(literal).toEqual(bound);
          expect(literal.tenant).toBe(scope.tenant ?? "");
        }
      } finally {
        await close();
      }
    });

    it("a query without any tenant or ACL predicate sees only the scoped principal's rows", async () => {
      const { store, raw, close } = await open();
      try {
        expect(store.missing.map((m) => m.feature)).not.toContain("row-level security");
        const everything = "SELECT tenant, source, id FROM ferret.documents ORDER BY tenant, source, id";
        // The tables hold both tenants (as the owner sees them with every tenant in scope)...
        expect((await scoped(raw, { allTenants: true, roles: ["*"] }, everything)).map((r) => r.tenant)).toEqual(
          expect.arrayContaining([ACME, GLOBEX]),
        );
        // ...but a transaction scoped to one tenant sees none of the other's, whatever the query says.
        const forOlga = await scoped(raw, principalScope(olga), everything);
        expect(forOlga).toEqual([{ tenant: GLOBEX, source: "handbook", id: "handbook/vacation.md" }]);
        const crossTenant = await scoped(
          raw,
          principalScope(olga),
          `SELECT count(*) AS n FROM ferret.chunks WHERE tenant = '${ACME}'`,
        );
        expect(crossTenant).toEqual([{ n: "0" }]);
        // Document and source ACLs too: alice (no hr role) sees neither the hr document nor the hr source.
        const forAlice = (await scoped(raw, principalScope(alice), everything)).map((r) => r.id);
        expect(forAlice).toEqual(["handbook/security.md", "handbook/vacation.md"]);
        const forHarriet = (await scoped(raw, principalScope(harriet), everything)).map((r) => r.id);
        expect(forHarriet).toContain("salaries/2024.md");
        expect(forHarriet).toContain("handbook/bonus.md");
        // A transaction that set nothing sees nothing at all.
        for (const table of [
          "documents",
          "chunks",
          "sources",
          "table_sources",
          "graph_mentions",
          "bm25_stats",
          "chunk_terms",
          "term_stats",
          "term_groups",
        ]) {
          expect(await scoped(raw, undefined, `SELECT * FROM ferret.${table}`), table).toEqual([]);
        }
      } finally {
        await close();
      }
    });

    it("bm25's row and token totals and the postings are bound by the same policies: each principal's are those of the rows it may read", async () => {
      const { store, raw, close } = await open();
      try {
        // A removal and a rewrite leave delta rows and fold them: the totals follow.
        await store.removeDocuments(ACME, ["handbook/security.md"], { source: "handbook" });
        const totals = (table: string) =>
          `SELECT (SELECT coalesce(sum(n), 0) FROM ferret.bm25_stats WHERE tbl = '${table}') AS n,
             (SELECT coalesce(sum(ntok), 0) FROM ferret.bm25_stats WHERE tbl = '${table}') AS ntok,
             (SELECT count(*) FROM ferret.${table}) AS rows, (SELECT coalesce(sum(ntok), 0) FROM ferret.${table}) AS tokens`;
        const seen = new Set<string>();
        for (const scope of [principalScope(alice), principalScope(harriet), principalScope(olga), writeScope(ACME)]) {
          for (const table of ["chunks", "documents"]) {
            const [row] = await scoped(raw, scope, totals(table));
            expect(row?.n, `${table} ${JSON.stringify(scope)}`).toBe(row?.rows);
            expect(row?.ntok, `${table} ${JSON.stringify(scope)}`).toBe(row?.tokens);
            seen.add(String(row?.rows));
          }
        }
        // The principals do see different rows (alice none of hr's, olga only globex's).
        expect(seen.size).toBeGreaterThan(2);
        // The postings each principal may read are exactly those of the chunks it may read (one per chunk and
        // lexeme of its tf).
        const postings = `SELECT (SELECT count(*) FROM ferret.chunk_terms) AS postings,
            (SELECT count(*) FROM ferret.chunks AS c, jsonb_object_keys(c.tf)) AS lexemes,
            (SELECT count(*) FROM ferret.chunk_terms AS t
             WHERE NOT EXISTS (SELECT 1 FROM ferret.chunks AS c WHERE c.rowid = t.rowid)) AS orphans`;
        const counts = new Set<string>();
        for (const scope of [principalScope(alice), principalScope(harriet), principalScope(olga), writeScope(ACME)]) {
          const [row] = await scoped(raw, scope, postings);
          expect(row?.postings, JSON.stringify(scope)).toBe(row?.lexemes);
          expect(row?.orphans, JSON.stringify(scope)).toBe("0");
          counts.add(String(row?.postings));
        }
        expect(counts.size).toBeGreaterThan(2);
      } finally {
        await close();
      }
    });

    /** Names of the indexes a query's plan reads, planned in a transaction scoped to `scope` (seq scans off). */
    async function planIndexes(raw: pg.Client, scope: Parameters<typeof setScope>[1], sql: string) {
      await raw.query("BEGIN");
      try {
        await setScope(raw, scope);
        // The fixture tables are tiny: without this the planner reads them whole whatever indexes it may use.
        await raw.query("SET LOCAL enable_seqscan = off");
        const plan = (await raw.query(`EXPLAIN (FORMAT JSON) ${sql}`)).rows[0]?.["QUERY PLAN"];
        const names: string[] = [];
        const walk = (node: unknown) => {
          if (Array.isArray(node)) node.forEach(walk);
          else if (node !== null && typeof node === "object") {
            for (const [key, value] of Object.entries(node)) {
              if (key === "Index Name" && typeof value === "string") names.push(value);
              else walk(value);
            }
          }
        };
        walk(plan);
        return names;
      } finally {
        await raw.query("ROLLBACK");
      }
    }

    it("keyword, BM25 and vector search use their indexes under row-level security and still see only the scope", async () => {
      const { store, raw, close } = await open();
      try {
        // The leakproof match lets the GIN index serve the query below the policies...
        expect(store.indexedKeywordMatch).toBe(true);
        const match = (table: string, column: string) =>
          `SELECT tenant FROM ferret.${table} WHERE ${column} OPERATOR(ferret.@@) to_tsquery('ferret.ferret_text', 'vacation')`;
        expect(await planIndexes(raw, principalScope(olga), match("chunks", "tsv"))).toContain("chunks_tsv_leakproof");
        expect(await planIndexes(raw, principalScope(olga), match("documents", "doc_tsv"))).toContain(
          "documents_tsv_leakproof",
        );
        // ...and the policies still decide what it returns: both tenants have vacation chunks.
        expect(await scoped(raw, { allTenants: true, roles: ["*"] }, match("chunks", "tsv"))).toEqual(
          expect.arrayContaining([{ tenant: ACME }, { tenant: GLOBEX }]),
        );
        expect(await scoped(raw, principalScope(olga), match("chunks", "tsv"))).toEqual([{ tenant: GLOBEX }]);
        expect(await scoped(raw, undefined, match("chunks", "tsv"))).toEqual([]);
        if (store.textsearchIndex) {
          const top = `SELECT rowid FROM ferret.chunks ORDER BY bm25 <@> to_bm25query('vacation', 'ferret.chunks_bm25') LIMIT 5`;
          expect(await planIndexes(raw, principalScope(olga), top)).toContain("chunks_bm25");
        }
        if (!store.missing.some((m) => m.feature === "vector index")) {
          const knn = `SELECT rowid FROM ferret.chunks WHERE dims = 4
            ORDER BY embedding::vector(4) <=> '[1,0,0,0]'::vector(4) LIMIT 5`;
          expect(await planIndexes(raw, principalScope(olga), knn)).toContain("chunks_hnsw_4");
        }
      } finally {
        await close();
      }
    });

    // PGlite's socket server has one user: only the cluster can log in as a role without SUPERUSER.
    it.runIf(kind !== "PGlite")(
      "a login without SUPERUSER matches keywords without the index, says so at start, and finds the same",
      async () => {
        const url = await (await server()).database();
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        try {
          await admin.query("CREATE ROLE ferret_plain_login LOGIN NOSUPERUSER NOBYPASSRLS");
          await admin.query(`GRANT CREATE ON DATABASE ${new URL(url).pathname.slice(1)} TO ferret_plain_login`);
        } finally {
          await admin.end();
        }
        const plainUrl = new URL(url);
        plainUrl.username = "ferret_plain_login";
        const warnings: string[] = [];
        const store = await createPostgresStore({
          url: plainUrl.toString(),
          poolSize: 2,
          onWarning: (m) => warnings.push(m),
        });
        try {
          expect(store.indexedKeywordMatch).toBe(false);
          expect(warnings.join("\n")).toMatch(
            /indexed keyword matching is off: .*not a superuser.*start ferret once as a superuser/is,
          );
          await seed(store);
          const hits = await store.keywordSearch({ principal: olga, k: 5, terms: ["vacation"] });
          expect(hits.map((h) => h.docId)).toEqual(["handbook/vacation.md"]);
          expect(hits.every((h) => h.text.includes("Globex"))).toBe(true);
        } finally {
          await store.close();
        }
      },
    );

    it("refuses to write a row of another tenant than the transaction's", async () => {
      const { raw, close } = await open();
      try {
        await expect(
          scoped(
            raw,
            writeScope(ACME),
            `INSERT INTO ferret.sources (tenant, name, kind, description, acl) VALUES ('${GLOBEX}', 'x', 'documents', 'x', '[]')`,
          ),
        ).rejects.toMatchObject({ code: "42501" });
      } finally {
        await close();
      }
    });

    it("run_sql reaches only the principal's views: not ferret's tables, not another tenant's schema", async () => {
      const { store, close } = await open();
      try {
        await store.putSource({ name: "tickets", tenant: GLOBEX, kind: "table", description: "G", acl: [] });
        await store.writeTable({
          tenant: GLOBEX,
          source: "tickets",
          file: "g.csv",
          schema: { name: "secrets", primaryKey: "k", columns: [{ name: "k", type: "TEXT" }] },
          rows: [{ k: "globex-only" }],
        });
        expect((await store.querySql("SELECT k FROM secrets", olga)).rows).toEqual([{ k: "globex-only" }]);
        const attempts = [
          "SELECT * FROM ferret.documents",
          "SELECT * FROM documents",
          `SELECT * FROM ${tenantSchema(GLOBEX)}.secrets`,
          "SELECT * FROM secrets",
          "SELECT pg_read_file('/etc/hostname')",
          "WITH gone AS (DELETE FROM tickets RETURNING *) SELECT * FROM gone",
        ];
        for (const sql of attempts) {
          await expect(store.querySql(sql, alice), sql).rejects.toMatchObject({
            name: expect.stringMatching(/^Sql(Rejected|Invalid)Error$/),
          });
        }
        expect((await store.querySql("SELECT count(*) AS n FROM tickets", alice)).rows).toEqual([{ n: 5 }]);
      } finally {
        await close();
      }
    });
  },
);
