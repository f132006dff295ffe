/**
 * Postings by ACL group and the per-term counts kept as they are written (postings.ts, schema version 7): a
 * version-6 database upgrades in place and ranks as one written at the current version, and after writes,
 * rewrites and removals each principal's counts are those of the postings it may read.
 */
import pg from "pg";
import { expect, it } from "vitest";
import { ACME, acmeOwner, alice, DOCS, fixtureWrite, harriet, olga, seed } from "../../testing/fixtures.js";
import { queryTerms } from "../../text/tokenize.js";
import { indexWords } from "./bm25.js";
import { principalScope, type Scope, setScope, writeScope } from "./db.js";
import { createPostgresStore } from "./index.js";
import { HIGH_F } from "./postings.js";
import { APP_ROLE, TS_CONFIG } from "./schema.js";
import { databaseAtVersion, describeOnServers } from "./test-servers.js";

/** Made-up notes of a bakery: two sources, one with an ACL on a note. */
const NOTES: [id: string, source: string, acl: string, title: string, body: string][] = [
  ["oven.md", "bakery", "[]", "Oven schedule", "The deck oven bakes rye loaves at dawn; sourdough proofs overnight."],
  ["flour.md", "bakery", "[]", "Flour stock", "Rye flour and spelt flour arrive on Tuesdays; the rye sacks stay dry."],
  ["wages.md", "bakery", '["owner"]', "Wages", "Bakers on the dawn shift earn a rye bonus."],
  ["van.md", "delivery", "[]", "Delivery van", "The van leaves at six with sourdough and rye loaves for the cafes."],
];

const QUESTIONS = ["rye loaves dawn", "sourdough van", "flour sacks rye", "bonus dawn shift"];

/** Rows as ferret writes them, in SQL that schema version 6 accepts (as the login superuser). */
async function writeRows(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tsv = (title: string, body: string) =>
      `setweight(to_tsvector('${TS_CONFIG}', ${title}), 'A') || setweight(to_tsvector('${TS_CONFIG}', ${body}), 'D')`;
    const values = [
      ACME,
      NOTES.map((n) => n[0]),
      NOTES.map((n) => n[1]),
      NOTES.map((n) => n[2]),
      NOTES.map((n) => indexWords(n[3])),
      NOTES.map((n) => indexWords(n[4])),
      NOTES.map((n) => n[4]),
    ];
    const rows =
      "unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS d (id, source, acl, title, body, text)";
    await client.query(
      `INSERT INTO ferret.sources (tenant, name, kind, description, acl)
       VALUES ($1, 'bakery', 'documents', 'bakery', '[]'), ($1, 'delivery', 'documents', 'delivery', '[]')`,
      [ACME],
    );
    await client.query(
      `INSERT INTO ferret.documents (tenant, id, source, title, acl, content_hash, text, metadata, doc_tsv)
       SELECT $1, d.id, d.source, d.title, d.acl::jsonb, d.id, d.text, '{}', ${tsv("d.title", "d.body")} FROM ${rows}`,
      values,
    );
    await client.query(
      `INSERT INTO ferret.chunks (tenant, id, doc_id, source, ordinal, text, section, start, "end", tokens, acl, body,
         tsv, bm25)
       SELECT $1, d.id || '::0', d.id, d.source, 0, d.text, '[]', 0, length(d.text), 1, d.acl::jsonb, d.body,
         ${tsv("d.title", "d.body")}, d.body
       FROM ${rows}`,
      values,
    );
  } finally {
    await client.end();
  }
}

/** Runs `fn` as the application role in a transaction under `scope`, rolled back after. */
async function inScope<T>(url: string, scope: Scope, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SET ROLE ${APP_ROLE}`);
    await client.query("BEGIN");
    await setScope(client, scope);
    const result = await fn(client);
    await client.query("ROLLBACK");
    return result;
  } finally {
    await client.end();
  }
}

/**
 * Per lexeme, under `scope`: the counts term_stats holds (postings, low postings, largest frequency, smallest
 * token count) and those of the chunks themselves (one posting per chunk and key of its tf).
 */
function counts(url: string, scope: Scope) {
  return inScope(url, scope, async (client) => {
    const kept = await client.query<{ lexeme: string; n: number; nlow: number; maxf: number; minntok: number }>(
      `SELECT lexeme, sum(n)::float8 AS n, sum(nlow)::float8 AS nlow, max(maxf) AS maxf, min(minntok)::float8 AS minntok
       FROM ferret.term_stats GROUP BY lexeme HAVING sum(n) <> 0 ORDER BY lexeme COLLATE "C"`,
    );
    const actual = await client.query<{ lexeme: string; n: number; nlow: number; maxf: number; minntok: number }>(
      `SELECT t.key AS lexeme, count(*)::float8 AS n, count(*) FILTER (WHERE t.value::float8 <= $1)::float8 AS nlow,
         max(t.value::float8) AS maxf, min(c.ntok)::float8 AS minntok
       FROM ferret.chunks AS c CROSS JOIN LATERAL jsonb_each(c.tf) AS t GROUP BY t.key ORDER BY t.key COLLATE "C"`,
      [HIGH_F],
    );
    const postings = await client.query<{ n: number }>("SELECT count(*)::float8 AS n FROM ferret.chunk_terms");
    return { kept: kept.rows, actual: actual.rows, postings: postings.rows[0]?.n ?? -1 };
  });
}

/** Under `scope`: term_stats' delta rows not yet folded, and (lexeme, group) pairs with more than one row. */
function unfolded(url: string, scope: Scope) {
  return inScope(url, scope, async (client) => {
    const row = await client.query<{ deltas: number; repeated: number; rows: number }>(
      `SELECT (SELECT count(*)::float8 FROM ferret.term_stats WHERE delta) AS deltas,
         (SELECT count(*)::float8 FROM (SELECT 1 FROM ferret.term_stats GROUP BY lexeme, grp HAVING count(*) > 1) AS x)
           AS repeated,
         (SELECT count(*)::float8 FROM ferret.term_stats) AS rows`,
    );
    return row.rows[0];
  });
}

/** term_stats agrees with the postings under `scope`: counts exact, bounds at least as wide. */
async function expectCounts(url: string, scope: Scope): Promise<number> {
  const { kept, actual, postings } = await counts(url, scope);
  const label = JSON.stringify(scope);
  expect(
    kept.map((r) => [r.lexeme, r.n, r.nlow]),
    label,
  ).toEqual(actual.map((r) => [r.lexeme, r.n, r.nlow]));
  expect(postings, label).toBe(actual.reduce((a, r) => a + r.n, 0));
  kept.forEach((r, i) => {
    const want = actual[i];
    expect(r.maxf, `${label} ${r.lexeme}`).toBeGreaterThanOrEqual(want?.maxf ?? Number.POSITIVE_INFINITY);
    expect(r.minntok, `${label} ${r.lexeme}`).toBeLessThanOrEqual(want?.minntok ?? Number.NEGATIVE_INFINITY);
  });
  return postings;
}

/** Some term of the tenant has low and high postings both, so the low counts were checked, not only zeros. */
async function expectMixedTerms(url: string): Promise<void> {
  const { actual } = await counts(url, writeScope(ACME));
  expect(actual.some((r) => r.nlow > 0 && r.nlow < r.n)).toBe(true);
}

describeOnServers(
  (kind) => `postings by group and term counts on ${kind}`,
  (server) => {
    // Version 6 had no term counts; version 7 ranked in the client (the current one ranks in keyword_top).
    for (const version of [6, 7])
      it(`a version-${version} database upgrades in place, counts its postings and ranks as one written at the current version`, async () => {
        const upgradedUrl = await databaseAtVersion(await server(), version);
        await writeRows(upgradedUrl);
        const upgraded = await createPostgresStore({ url: upgradedUrl, poolSize: 2 });
        const freshUrl = await (await server()).database();
        const fresh = await createPostgresStore({ url: freshUrl, poolSize: 2 });
        await writeRows(freshUrl);
        try {
          for (const principal of [acmeOwner, { ...alice, roles: ["staff"] }, { ...alice, roles: ["owner"] }]) {
            for (const question of QUESTIONS) {
              const query = { principal, terms: queryTerms(question), k: 3 };
              const want = await fresh.keywordSearch(query);
              expect(want.length, question).toBeGreaterThan(0);
              expect(
                (await upgraded.keywordSearch(query)).map((c) => [c.id, c.raw]),
                `${principal.roles} ${question}`,
              ).toEqual(want.map((c) => [c.id, c.raw]));
            }
          }
          // The wages note is read only with its role: its postings and counts too.
          const withRole = await expectCounts(upgradedUrl, principalScope({ ...alice, roles: ["owner"] }));
          const without = await expectCounts(upgradedUrl, principalScope({ ...alice, roles: ["staff"] }));
          expect(withRole).toBeGreaterThan(without);
          expect(await expectCounts(upgradedUrl, writeScope(ACME))).toBe(withRole);
          await expectMixedTerms(upgradedUrl);
        } finally {
          await upgraded.close();
          await fresh.close();
        }
      }, 120_000);

    it("writes, rewrites and removals keep each principal's term counts equal to the postings it may read", async () => {
      const url = await (await server()).database();
      const store = await createPostgresStore({ url, poolSize: 2 });
      try {
        await seed(store);
        // A rewrite with other text, then a removal: negative deltas, folded with the rest.
        const first = DOCS[0];
        if (first === undefined) throw new Error("fixture documents are missing");
        const rewritten = fixtureWrite({
          ...first,
          paragraphs: ["Vacation requests go to the team lead by e-mail."],
          vectors: [[1, 0, 0, 0]],
        });
        await store.writeDocuments([rewritten]);
        await store.removeDocuments(ACME, ["handbook/security.md"], { source: "handbook" });
        const seen = new Set<number>();
        for (const scope of [principalScope(alice), principalScope(harriet), principalScope(olga), writeScope(ACME)]) {
          seen.add(await expectCounts(url, scope));
        }
        // The principals read different postings (alice none of hr's, olga only globex's).
        expect(seen.size).toBeGreaterThan(2);
        await expectMixedTerms(url);
        // Each write folded the deltas its chunks' triggers appended: one row per term and group is left.
        const layout = await unfolded(url, writeScope(ACME));
        expect(layout?.rows).toBeGreaterThan(0);
        expect(layout).toMatchObject({ deltas: 0, repeated: 0 });
        // A transaction that set no scope reads no posting, count or group.
        const { kept, postings } = await counts(url, {});
        expect(kept).toEqual([]);
        expect(postings).toBe(0);
      } finally {
        await store.close();
      }
    }, 120_000);
  },
);
