/**
 * The exact top-k pruning of `ferret.keyword_top` (keyword-top.ts) on a corpus where it has work to do: frequent
 * words whose postings are mostly one occurrence in the body (low) and some in titles and repeated (high),
 * rare words, repeated query words. Every answer, pruned or not, must equal SQLite's ranking (FTS5's bm25,
 * which scores every match): the same chunks in the same order with the same scores, for several k, with and
 * without narrowing. The function's debug message says which way each answer was found, so the test also
 * checks that each way (the seed's answer, a pruned essential pass that leaves a term's low postings or a
 * whole term out, one pass) was taken.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { seededRandom, zipfSampler } from "../../../test/fixtures/prng.js";
import type { StoreV1 } from "../../spec/store.js";
import { acmeOwner, type FixtureDoc, fixtureWrite } from "../../testing/fixtures.js";
import { queryTerms } from "../../text/tokenize.js";
import { createSqliteStore } from "../sqlite/index.js";
import { rankTerms } from "./bm25.js";
import { createPostgresStore } from "./index.js";
import { APP_ROLE } from "./schema.js";
import { describeOnServers } from "./test-servers.js";

/** Invented words, so no stemmer or stop list touches them. */
const WORDS = Array.from(
  { length: 80 },
  (_, i) => `zq${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}vo`,
);

function corpus(): FixtureDoc[] {
  const random = seededRandom(20261129);
  // Zipf-like: word i is drawn with weight 1 / (i + 1), so the first words are in most chunks.
  const rank = zipfSampler({ size: WORDS.length, exponent: 1 });
  const draw = () => WORDS[rank(random)] as string;
  const docs: FixtureDoc[] = [];
  for (let d = 0; d < 60; d++) {
    const paragraphs = Array.from({ length: 3 + (d % 4) }, () => {
      const words = Array.from({ length: 8 + Math.floor(random() * 40) }, draw);
      // Now and then a word twice in a paragraph: a high posting in the body.
      if (random() < 0.3) words.push(words[0] as string);
      return `${words.join(" ")}.`;
    });
    docs.push({
      id: `notes/${d}.md`,
      source: d % 3 === 0 ? "north" : "south",
      // Titles and headings of frequent and rare words: high postings in every chunk of the document.
      title: `${draw()} ${WORDS[10 + (d % 50)]}`,
      section: [`${WORDS[(d * 7) % 30]}`],
      paragraphs,
      updatedAt: `2024-0${1 + (d % 9)}-15`,
    });
  }
  return docs;
}

const DOCS = corpus();

/** Queries of two to five words, frequent with rare, some repeated. */
function questions(): string[] {
  const random = seededRandom(7);
  const out = new Set<string>([WORDS[0] as string, `${WORDS[0]} ${WORDS[1]}`, `${WORDS[2]} ${WORDS[2]} ${WORDS[40]}`]);
  while (out.size < 60) {
    const n = 2 + Math.floor(random() * 4);
    const words = Array.from({ length: n }, () => {
      const r = random();
      return WORDS[Math.floor(r * r * r * WORDS.length)] as string;
    });
    out.add(words.join(" "));
  }
  return [...out];
}

let dir = "";
let sqlite: StoreV1;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ferret-pg-prune-"));
  sqlite = await createSqliteStore({ path: join(dir, "ferret.db") });
  await seed(sqlite);
});
afterAll(async () => {
  await sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

async function seed(store: StoreV1): Promise<void> {
  for (const name of ["north", "south"]) {
    await store.putSource({ name, tenant: acmeOwner.tenant, kind: "documents", description: name, acl: [] });
  }
  // One document per write, in order, so both stores number the chunks alike (rowid breaks score ties).
  for (const doc of DOCS) await store.writeDocuments([fixtureWrite(doc)]);
}

describeOnServers(
  (kind) => `keyword pruning on ${kind} ranks as SQLite`,
  (server) => {
    it("gives SQLite's top k, in order and with its scores, whichever way each answer was found", async () => {
      const url = await (await server()).database();
      const store = await createPostgresStore({ url, poolSize: 2 });
      const client = new pg.Client({ connectionString: url });
      const notices: string[] = [];
      client.on("notice", (n) => {
        if (n.message?.startsWith("ferret.keyword_top")) notices.push(n.message);
      });
      try {
        await seed(store);
        await client.connect();
        await client.query(`SET ROLE ${APP_ROLE}`);
        await client.query("SET client_min_messages = debug1");
        let compared = 0;
        for (const question of questions()) {
          for (const extra of [{ k: 3 }, { k: 10 }, { k: 10, sources: ["north"] }, { k: 25, since: "2024-05-01" }]) {
            const label = `${question} ${JSON.stringify(extra)}`;
            const want = await sqlite.keywordSearch({ principal: acmeOwner, terms: queryTerms(question), ...extra });
            const terms = rankTerms(queryTerms(question));
            const got = await client.query<{ id: string; raw: number }>(
              "SELECT id, raw FROM ferret.keyword_top($1, $2, $3, $4, $5, $6, NULL, NULL, $7)",
              [
                acmeOwner.tenant,
                acmeOwner.roles,
                terms.map((t) => t.tsquery),
                terms.map((t) => t.words),
                extra.k,
                "sources" in extra ? extra.sources : null,
                "since" in extra ? extra.since : null,
              ],
            );
            expect(
              got.rows.map((r) => r.id),
              label,
            ).toEqual(want.map((c) => c.id));
            got.rows.forEach((r, i) => {
              expect(r.raw, `${label} #${i}`).toBeCloseTo(want[i]?.raw ?? Number.NaN, 9);
            });
            compared += want.length;
          }
        }
        expect(compared).toBeGreaterThan(1000);
        const ways = (pattern: RegExp) => notices.filter((m) => pattern.test(m)).length;
        // Each way of finding the answer was taken: from the seed alone, by a pruned essential pass that left
        // a term's low postings out (a term at 1) and one that left a whole term out (at 0), and in one pass.
        expect(ways(/answer=seed$/), notices.slice(0, 5).join("\n")).toBeGreaterThan(0);
        expect(ways(/essential=\{[^}]*\b1\b[^}]*\} .*answer=pruned$/)).toBeGreaterThan(0);
        expect(ways(/essential=\{[^}]*\b0\b[^}]*\} .*answer=pruned$/)).toBeGreaterThan(0);
        expect(ways(/answer=one pass$/)).toBeGreaterThan(0);
        // A seed of a term's high postings alone (a term at 1 in the seed).
        expect(ways(/seed=\{[^}]*\b1\b[^}]*\}/)).toBeGreaterThan(0);
      } finally {
        await client.end();
        await store.close();
      }
    }, 300_000);
  },
);
