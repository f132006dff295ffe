/**
 * Chinese, Japanese and German keyword search on PostgreSQL: the store indexes the same segmented text as
 * the SQLite store (words plus CJK bigrams from src/text), so the same query terms find the same documents.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import type { StoreV1 } from "../../spec/store.js";
import { acmeOwner, fixtureWrite } from "../../testing/fixtures.js";
import { terms } from "../../text/tokenize.js";
import { createSqliteStore } from "../sqlite/index.js";
import { createPostgresStore } from "./index.js";
import { describeOnServers } from "./test-servers.js";

const DOCS = [
  { id: "zh/gateway.md", title: "遥测网关", text: "遥测网关由飞行软件团队负责。团队负责人是王芳。" },
  { id: "zh/canteen.md", title: "食堂", text: "食堂每天中午十二点开门，提供素食。" },
  {
    id: "ja/gateway.md",
    title: "テレメトリゲートウェイ",
    text: "テレメトリゲートウェイはフライトソフトウェアチームが担当しています。",
  },
  { id: "ja/holiday.md", title: "休暇", text: "有給休暇は年に二十日です。" },
  {
    id: "de/gateway.md",
    title: "Telemetrie-Gateway",
    text: "Die Telemetrie-Gateways werden vom Flugsoftwareteam betreut. Zuständig ist Jürgen Müller.",
  },
  {
    id: "de/kantine.md",
    title: "Kantine",
    text: "Die Kantine öffnet täglich um zwölf Uhr und bietet Gerichte ohne Fleisch.",
  },
];

const QUERIES: [string, string][] = [
  ["谁负责遥测网关？", "zh/gateway.md"],
  ["食堂几点开门", "zh/canteen.md"],
  ["ゲートウェイの担当は？", "ja/gateway.md"],
  ["有給休暇は何日？", "ja/holiday.md"],
  ["Wer betreut das Gateway?", "de/gateway.md"],
  ["Wann öffnet die Kantine?", "de/kantine.md"],
  ["Jurgen Muller", "de/gateway.md"],
];

async function seed(store: StoreV1): Promise<void> {
  await store.putSource({ name: "wiki", tenant: acmeOwner.tenant, kind: "documents", description: "Wiki", acl: [] });
  await store.writeDocuments(
    DOCS.map((d) => fixtureWrite({ id: d.id, source: "wiki", title: d.title, paragraphs: [d.text] })),
  );
}

describeOnServers(
  (kind) => `keyword search in Chinese, Japanese and German on ${kind}`,
  (server) => {
    it("finds the document each question is about, first, as the SQLite store does", async () => {
      const dir = mkdtempSync(join(tmpdir(), "ferret-ml-"));
      const sqlite = await createSqliteStore({ path: join(dir, "ferret.db") });
      const pg = await createPostgresStore({ url: await (await server()).database() });
      try {
        await seed(sqlite);
        await seed(pg);
        for (const [question, expected] of QUERIES) {
          const query = { principal: acmeOwner, terms: terms(question), k: 3 };
          const fromPg = await pg.keywordSearch(query);
          expect(fromPg[0]?.docId, question).toBe(expected);
          expect(fromPg[0]?.docId, question).toBe((await sqlite.keywordSearch(query))[0]?.docId);
        }
      } finally {
        await pg.close();
        await sqlite.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);
