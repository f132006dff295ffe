/**
 * Keyword ranking parity: the same documents written to SQLite and to PostgreSQL give, for each query, the
 * same top-k chunks in the same order with the same bm25 scores (FTS5's formula and column weights, computed
 * in PostgreSQL from the tsvectors), and the same top documents from the document pass. The corpus mixes
 * titles, sections, repeated terms, lengths, words FTS5 and PostgreSQL's parser split differently ("v2.1",
 * addresses, snake_case), words Porter and Snowball English stem differently, German, Chinese and Japanese.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KeywordQuery, StoreV1 } from "../../spec/store.js";
import { acmeOwner, type FixtureDoc, fixtureWrite } from "../../testing/fixtures.js";
import { queryTerms } from "../../text/tokenize.js";
import { createSqliteStore } from "../sqlite/index.js";
import { createPostgresStore } from "./index.js";
import type { TestServer } from "./test-servers.js";
import { clusterAvailable, SERVER_MS, startCluster, startPglite, stopServers } from "./test-servers.js";

const DOCS: FixtureDoc[] = [
  {
    id: "greenhouse/irrigation.md",
    source: "garden",
    title: "Greenhouse irrigation",
    section: ["Greenhouse", "Irrigation"],
    paragraphs: [
      "The drip lines in greenhouse three run every morning at six for twelve minutes.",
      "Valve controller v2.1 replaced the older timer; its settings live in valve_schedule on the shed server.",
      "Report a leaking drip line to moss-team@quillfield.example before the weekend.",
    ],
  },
  {
    id: "greenhouse/seedlings.md",
    source: "garden",
    title: "Seedling trays",
    section: ["Greenhouse", "Seedlings"],
    paragraphs: [
      "Seedling trays stay on the heated bench until the second leaves open.",
      "Tomato seedlings, pepper seedlings and basil seedlings share the bench; tomato trays go nearest the heater.",
    ],
  },
  {
    id: "greenhouse/pests.md",
    source: "garden",
    title: "Pest patrol",
    section: ["Greenhouse", "Pests"],
    paragraphs: [
      "Aphids on the pepper plants are washed off with soapy water on Tuesdays.",
      "Sticky cards hang above every bench; a card with more than forty whiteflies means the bench is treated.",
      "Ladybird larvae arrive by post each spring and are released in greenhouse three.",
    ],
  },
  {
    id: "orchard/pruning.md",
    source: "garden",
    title: "Orchard pruning",
    section: ["Orchard"],
    paragraphs: [
      "Apple trees are pruned in late winter; plum trees only in summer to avoid silver leaf.",
      "The long ladder is kept in the orchard shed and needs two people.",
    ],
  },
  {
    id: "orchard/harvest.md",
    source: "garden",
    title: "Harvest log",
    section: ["Orchard", "Harvest"],
    paragraphs: [
      "Each crate of apples is weighed on the shed scale and written in the harvest log.",
      "Plums, pears and apples from the orchard go to the cider press on Saturdays.",
      "The harvest log v2.1 template adds a column for crate weight in kilograms.",
    ],
  },
  {
    id: "shed/notices.md",
    source: "garden",
    title: "Noticeboard",
    paragraphs: ["Communications about the watering rota are clearly marked on the noticeboard by the gate."],
  },
  {
    id: "shed/tools.md",
    source: "garden",
    title: "Shed tools",
    paragraphs: [
      "Secateurs, loppers and the pruning saw hang on the shed wall; oil them after each use.",
      "The shed server runs the valve schedule and the weather station logger.",
    ],
  },
  {
    id: "kitchen/cider.md",
    source: "kitchen",
    title: "Cider press",
    section: ["Kitchen", "Cider"],
    paragraphs: [
      "The cider press takes twenty kilograms of apples per pressing.",
      "Pressed juice rests in the cool room for three days before bottling.",
      "Wash the press with cold water only; hot water sets the pectin.",
    ],
  },
  {
    id: "kitchen/jam.md",
    source: "kitchen",
    title: "Plum jam",
    paragraphs: ["Plum jam needs one kilogram of sugar for every two kilograms of plums, boiled for eight minutes."],
  },
  {
    id: "de/gewaechshaus.md",
    source: "garden",
    title: "Gewächshaus Bewässerung",
    section: ["Gewächshaus"],
    paragraphs: [
      "Die Tropfschläuche im Gewächshaus drei laufen jeden Morgen zwölf Minuten.",
      "Undichte Schläuche meldet man vor dem Wochenende dem Gartenteam.",
    ],
  },
  {
    id: "zh/orchard.md",
    source: "garden",
    title: "果园修剪",
    paragraphs: ["苹果树在冬末修剪，李子树只在夏天修剪。", "长梯子放在果园的棚屋里，需要两个人搬。"],
  },
  {
    id: "ja/greenhouse.md",
    source: "garden",
    title: "温室の水やり",
    paragraphs: ["温室三号の点滴ホースは毎朝六時に十二分間動きます。"],
  },
];

const QUERIES = [
  "When do the drip lines run in greenhouse three?",
  "Which controller replaced the timer, v2.1?",
  "Where are the valve_schedule settings kept?",
  "Who gets told about a leaking drip line, moss-team@quillfield.example?",
  "tomato seedlings heated bench",
  "pepper plants aphids",
  "How many whiteflies on a sticky card before treatment?",
  "When are plum trees pruned in the orchard?",
  "apples crate weight harvest log",
  "cider press kilograms of apples",
  "plum jam sugar",
  "shed server weather station",
  "Wann laufen die Tropfschläuche im Gewächshaus?",
  "李子树什么时候修剪",
  "温室の点滴ホース",
];

const servers: Promise<TestServer>[] = [];
let dir: string;
let sqlite: StoreV1;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ferret-pg-parity-"));
  sqlite = await createSqliteStore({ path: join(dir, "ferret.db") });
  await seed(sqlite);
});
afterAll(async () => {
  await sqlite.close();
  await stopServers(servers);
  rmSync(dir, { recursive: true, force: true });
}, SERVER_MS.stop);

async function seed(store: StoreV1): Promise<void> {
  for (const name of ["garden", "kitchen"]) {
    await store.putSource({ name, tenant: acmeOwner.tenant, kind: "documents", description: name, acl: [] });
  }
  // One document per write, in order, so both stores number the chunks alike (rowid breaks score ties).
  for (const doc of DOCS) await store.writeDocuments([fixtureWrite(doc)]);
}

const query = (question: string, extra: Partial<KeywordQuery> = {}): KeywordQuery => ({
  principal: acmeOwner,
  terms: queryTerms(question),
  k: 5,
  ...extra,
});

const kinds: [string, () => Promise<TestServer>][] = [["PGlite", startPglite]];
if (clusterAvailable()) kinds.push(["PostgreSQL 15 cluster", startCluster]);

for (const [kind, start] of kinds) {
  describe(`keyword ranking on SQLite and ${kind}`, () => {
    let pg: StoreV1;
    beforeAll(async () => {
      const server = start();
      servers.push(server);
      pg = await createPostgresStore({ url: await (await server).database() });
      await seed(pg);
    }, SERVER_MS.start);
    afterAll(() => pg?.close());

    it("returns the same top-k chunks, in order, with the same bm25 scores", async () => {
      let compared = 0;
      for (const question of QUERIES) {
        const want = await sqlite.keywordSearch(query(question));
        const got = await pg.keywordSearch(query(question));
        expect(want.length, question).toBeGreaterThan(0);
        expect(
          got.map((c) => c.id),
          question,
        ).toEqual(want.map((c) => c.id));
        got.forEach((c, i) => {
          expect(c.raw, `${question} #${i}`).toBeCloseTo(want[i]?.raw ?? Number.NaN, 6);
        });
        compared += want.length;
      }
      expect(compared).toBeGreaterThan(QUERIES.length * 2);
    });

    it("stems as SQLite's Porter where Snowball English stems otherwise", async () => {
      // Porter stems "communications" and "community" alike (commun), Snowball English apart (communic,
      // communiti); Porter keeps "clearly" (clearli) apart from "clear", Snowball English joins them (clear).
      for (const [question, found] of [
        ["community", true],
        ["clear", false],
      ] as const) {
        const want = await sqlite.keywordSearch(query(question));
        const got = await pg.keywordSearch(query(question));
        expect(
          want.some((c) => c.docId === "shed/notices.md"),
          question,
        ).toBe(found);
        expect(
          got.map((c) => c.id),
          question,
        ).toEqual(want.map((c) => c.id));
        got.forEach((c, i) => {
          expect(c.raw, `${question} #${i}`).toBeCloseTo(want[i]?.raw ?? Number.NaN, 6);
        });
      }
    });

    it("ranks alike within a source filter and with a larger k", async () => {
      for (const question of QUERIES.slice(0, 6)) {
        for (const extra of [{ sources: ["kitchen"] }, { k: 20 }]) {
          const want = await sqlite.keywordSearch(query(question, extra));
          const got = await pg.keywordSearch(query(question, extra));
          expect(
            got.map((c) => c.id),
            `${question} ${JSON.stringify(extra)}`,
          ).toEqual(want.map((c) => c.id));
        }
      }
    });

    it("returns the same top documents from the document pass, with the same scores", async () => {
      for (const question of QUERIES) {
        const want = (await sqlite.documentSearch?.(query(question))) ?? [];
        const got = (await pg.documentSearch?.(query(question))) ?? [];
        expect(
          got.map((d) => d.docId),
          question,
        ).toEqual(want.map((d) => d.docId));
        got.forEach((d, i) => {
          expect(d.raw, `${question} #${i}`).toBeCloseTo(want[i]?.raw ?? Number.NaN, 6);
        });
      }
    });
  });
}
