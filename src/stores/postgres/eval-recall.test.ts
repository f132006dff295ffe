/**
 * The eval's retrieval metric on both stores: a multilingual folder (English, German, Chinese, Japanese) the
 * test writes is ingested into a SQLite file and into PostgreSQL, the same questions are searched through the
 * retriever the agent uses, and recall@5 (the eval's `recallAtK` over distinct documents) is equal within 0.01.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { recallAtK } from "../../eval/metrics/evidence-recall.js";
import type { RankedUnit } from "../../eval/metrics/ranked-evidence.js";
import { createFerret } from "../../ferret.js";
import { createRetriever } from "../../retrieval/index.js";
import { LOCAL_OWNER } from "../../spec/principal.js";
import { describeOnServers } from "./test-servers.js";

const DOCS: [string, string][] = [
  [
    "en/refunds.md",
    "# Refunds\n\nA refund request times out after 30 seconds when the payment gateway does not answer.",
  ],
  ["en/limits.md", "# Rate limits\n\nThe public API allows 100 requests per minute for each API key."],
  ["en/oncall.md", "# On-call\n\nThe primary on-call engineer receives a weekly stipend of 350 dollars."],
  ["en/retention.md", "# Retention\n\nTelemetry frames are retained for 90 days before they are deleted."],
  ["de/pruefstand.md", "# Prüfstand Mesa-2\n\nWährend eines Testlaufs gilt eine Sperrzone mit 250 Metern Radius."],
  ["de/kantine.md", "# Kantine\n\nDie Kantine öffnet täglich um zwölf Uhr und bietet Gerichte ohne Fleisch."],
  ["zh/gateway.md", "# 遥测网关\n\n遥测网关由飞行软件团队负责。团队负责人是王芳。"],
  ["zh/canteen.md", "# 食堂\n\n食堂每天中午十二点开门，提供素食。"],
  ["ja/holiday.md", "# 休暇\n\n有給休暇は年に二十日です。"],
  ["ja/gateway.md", "# テレメトリゲートウェイ\n\nテレメトリゲートウェイはフライトソフトウェアチームが担当しています。"],
];

/** Questions with their gold documents; the last two have two gold documents each, in different languages. */
const QUESTIONS: [string, string[]][] = [
  ["How long until a refund request times out?", ["en/refunds.md"]],
  ["How many API requests per minute are allowed?", ["en/limits.md"]],
  ["What stipend does the on-call engineer get?", ["en/oncall.md"]],
  ["Wie groß ist die Sperrzone am Prüfstand?", ["de/pruefstand.md"]],
  ["Wann öffnet die Kantine?", ["de/kantine.md"]],
  ["谁负责遥测网关？", ["zh/gateway.md"]],
  ["食堂几点开门", ["zh/canteen.md"]],
  ["有給休暇は何日？", ["ja/holiday.md"]],
  ["Which team owns the telemetry gateway?", ["zh/gateway.md", "ja/gateway.md"]],
  ["How long are frames kept, and when does the canteen open?", ["en/retention.md", "de/kantine.md"]],
];

let dir: string;
let docs: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ferret-pg-recall-"));
  docs = join(dir, "handbook");
  for (const [path, text] of DOCS) {
    mkdirSync(dirname(join(docs, path)), { recursive: true });
    writeFileSync(join(docs, path), `${text}\n`);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Mean recall@5 over the questions, and each question's ranked document ids. */
async function recall(db: string): Promise<{ mean: number; ranked: string[][] }> {
  const ferret = await createFerret({ db, principal: LOCAL_OWNER });
  try {
    await ferret.ingest(docs, { source: "handbook", workers: 0 });
    const retriever = createRetriever({ store: ferret.store });
    let sum = 0;
    const ranked: string[][] = [];
    for (const [question, gold] of QUESTIONS) {
      const passages = await retriever.search(question, { principal: LOCAL_OWNER, k: 10, mode: "keyword" });
      const ids = [...new Set(passages.map((p) => p.docId))];
      const units: RankedUnit[] = ids.map((id, i) => ({ id, source: "handbook", step: 1, score: -i }));
      sum += recallAtK(units, gold, 5) ?? 0;
      ranked.push(ids.slice(0, 5));
    }
    return { mean: sum / QUESTIONS.length, ranked };
  } finally {
    await ferret.close();
  }
}

describeOnServers(
  (kind) => `the eval's recall@5 on SQLite and ${kind}`,
  (server, kind) => {
    it("is equal within 0.01 over multilingual questions", async () => {
      const sqlite = await recall(join(dir, `${kind.length}.db`));
      const pg = await recall(await (await server()).database());
      expect(sqlite.mean).toBeGreaterThan(0.5);
      expect(Math.abs(pg.mean - sqlite.mean), JSON.stringify({ sqlite, pg })).toBeLessThanOrEqual(0.01);
    }, 120_000);
  },
);
