/**
 * bm25's per-row term frequencies and per-group totals (bm25-stats.ts): a database written at schema version 3
 * (before they existed) upgrades in place and then ranks exactly as one whose rows were written at the current
 * version, its tsvectors re-stemmed with Porter (version 6).
 */
import pg from "pg";
import { expect, it } from "vitest";
import { acmeOwner } from "../../testing/fixtures.js";
import { queryTerms } from "../../text/tokenize.js";
import { indexWords } from "./bm25.js";
import { setScope } from "./db.js";
import { createPostgresStore } from "./index.js";
import { TS_CONFIG } from "./schema.js";
import { databaseAtVersion, describeOnServers } from "./test-servers.js";

const NOTES: [id: string, title: string, body: string][] = [
  ["kiln.md", "Kiln firing", "The kiln fires glazed pots at night; a firing of stoneware takes eleven hours."],
  ["glaze.md", "Glaze recipes", "Celadon glaze v2.1 needs less iron; the glaze bucket is stirred before each use."],
  ["clay.md", "Clay storage", "Clay bags stay sealed; reclaimed clay dries on plaster bats before wedging."],
  ["wheel.md", "Wheel care", "Clean the wheel head and the splash pan after throwing; the kiln room stays shut."],
  ["orders.md", "Pot orders", "Orders of glazed mugs ship on Fridays; v2.1 of the order sheet lists the kiln batch."],
  ["rota.md", "Studio rota", "Communications about the studio rota are pinned to the door."],
];

const QUESTIONS = ["kiln firing glazed pots", "glaze v2.1 iron", "clay kiln plaster", "order sheet v2.1 kiln"];

/** The rows as ferret writes them, in SQL that schema versions 3 and 4 both accept (as the login superuser). */
async function writeRows(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const words = (text: string) => indexWords(text);
    const tsv = (title: string, body: string) =>
      `setweight(to_tsvector('${TS_CONFIG}', ${title}), 'A') || setweight(to_tsvector('${TS_CONFIG}', ${body}), 'D')`;
    const values = [
      acmeOwner.tenant,
      NOTES.map((n) => n[0]),
      NOTES.map((n) => words(n[1])),
      NOTES.map((n) => words(n[2])),
      NOTES.map((n) => n[2]),
    ];
    await client.query(
      "INSERT INTO ferret.sources (tenant, name, kind, description, acl) VALUES ($1, 'notes', 'documents', 'notes', '[]')",
      [acmeOwner.tenant],
    );
    await client.query(
      `INSERT INTO ferret.documents (tenant, id, source, title, acl, content_hash, text, metadata, doc_tsv)
       SELECT $1, d.id, 'notes', d.title, '[]', d.id, d.text, '{}', ${tsv("d.title", "d.body")}
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS d (id, title, body, text)`,
      values,
    );
    await client.query(
      `INSERT INTO ferret.chunks (tenant, id, doc_id, source, ordinal, text, section, start, "end", tokens, acl, body,
         tsv, bm25)
       SELECT $1, d.id || '::0', d.id, 'notes', 0, d.text, '[]', 0, length(d.text), 1, '[]', d.body,
         ${tsv("d.title", "d.body")}, d.body
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS d (id, title, body, text)`,
      values,
    );
  } finally {
    await client.end();
  }
}

describeOnServers(
  (kind) => `bm25 statistics on ${kind}`,
  (server) => {
    it("a version-3 database upgrades in place and ranks as one written at the current version", async () => {
      const upgradedUrl = await databaseAtVersion(await server(), 3);
      await writeRows(upgradedUrl);
      const upgraded = await createPostgresStore({ url: upgradedUrl, poolSize: 2 });

      const freshUrl = await (await server()).database();
      const fresh = await createPostgresStore({ url: freshUrl, poolSize: 2 });
      await writeRows(freshUrl);
      try {
        for (const question of QUESTIONS) {
          const query = { principal: acmeOwner, terms: queryTerms(question), k: 5 };
          const want = await fresh.keywordSearch(query);
          expect(want.length, question).toBeGreaterThan(1);
          const got = await upgraded.keywordSearch(query);
          expect(
            got.map((c) => [c.id, c.raw]),
            question,
          ).toEqual(want.map((c) => [c.id, c.raw]));
          const docs = (await upgraded.documentSearch?.(query)) ?? [];
          expect(
            docs.map((d) => [d.docId, d.raw]),
            question,
          ).toEqual(((await fresh.documentSearch?.(query)) ?? []).map((d) => [d.docId, d.raw]));
        }
        // The upgrade re-stemmed the rows with Porter: "community" and "communications" are one stem there
        // (Snowball English, the stemmer of versions up to 5, keeps them apart).
        const query = { principal: acmeOwner, terms: ["community"], k: 5 };
        expect((await upgraded.keywordSearch(query)).map((c) => [c.id, c.raw])).toEqual(
          (await fresh.keywordSearch(query)).map((c) => [c.id, c.raw]),
        );
        expect((await upgraded.keywordSearch(query)).map((c) => c.docId)).toEqual(["rota.md"]);
        // The upgrade took the totals from the rows it found.
        const client = new pg.Client({ connectionString: upgradedUrl });
        await client.connect();
        try {
          await client.query("BEGIN");
          await setScope(client, { allTenants: true, roles: ["*"] });
          const totals = await client.query<{ tbl: string; n: string; ntok: string }>(
            "SELECT tbl, sum(n) AS n, sum(ntok) AS ntok FROM ferret.bm25_stats GROUP BY tbl ORDER BY tbl",
          );
          const rows = await client.query<{ tbl: string; n: string; ntok: string }>(
            `SELECT 'chunks' AS tbl, count(*) AS n, sum(ntok) AS ntok FROM ferret.chunks
             UNION ALL SELECT 'documents', count(*), sum(ntok) FROM ferret.documents ORDER BY tbl`,
          );
          expect(totals.rows.map((r) => [r.tbl, Number(r.n), Number(r.ntok)])).toEqual(
            rows.rows.map((r) => [r.tbl, Number(r.n), Number(r.ntok)]),
          );
          expect(Number(rows.rows[0]?.n)).toBe(NOTES.length);
          await client.query("ROLLBACK");
        } finally {
          await client.end();
        }
      } finally {
        await upgraded.close();
        await fresh.close();
      }
    }, 120_000);
  },
);
