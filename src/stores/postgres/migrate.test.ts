import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACME, acmeOwner, alice, fixtureWrite, harriet, seed } from "../../testing/fixtures.js";
import { createSqliteStore } from "../sqlite/index.js";
import { createPostgresStore } from "./index.js";
import { migrateSqliteToPostgres } from "./migrate.js";
import type { TestServer } from "./test-servers.js";
import { SERVER_MS, startPglite, stopServers } from "./test-servers.js";

let server: Promise<TestServer> | undefined;
beforeAll(async () => {
  server = startPglite();
  await server;
}, SERVER_MS.start);
afterAll(() => stopServers([server]), SERVER_MS.stop);

describe("migrating a SQLite store into PostgreSQL", () => {
  it("copies everything, the counts match, and both stores answer alike", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ferret-migrate-"));
    const sqlite = await createSqliteStore({ path: join(dir, "ferret.db") });
    try {
      await seed(sqlite);
      await sqlite.writeDocuments([
        {
          ...fixtureWrite({
            id: "handbook/teams.md",
            source: "handbook",
            title: "Teams",
            paragraphs: ["Dana leads Flight."],
          }),
          chunks: fixtureWrite({
            id: "handbook/teams.md",
            source: "handbook",
            title: "Teams",
            paragraphs: ["Dana leads Flight."],
          }).chunks.map((c) => ({
            ...c,
            embedding: Float32Array.from([0.5, 0.5, 0, 0]),
            entities: [
              { text: "Dana", type: "name" },
              { text: "Dana", type: "name" },
              { text: "Flight", type: "name" },
            ],
          })),
        },
      ]);
      await sqlite.saveRun({
        runId: "r1",
        tenant: ACME,
        user: "alice",
        question: "q",
        startedAt: "2024-01-01T00:00:00Z",
        events: [],
      });
      await sqlite.appendTurns("s1", alice, [
        { role: "user", content: "hi", at: "2024-01-01T00:00:00Z" },
        { role: "assistant", content: "hello", at: "2024-01-01T00:00:01Z" },
      ]);
      await sqlite.keys.putKey({
        id: "k1",
        hash: "h1",
        tenant: ACME,
        user: "alice",
        roles: ["staff"],
        createdAt: "2024-01-01",
      });
      await sqlite.close();

      const pg = await createPostgresStore({ url: await (await (server as Promise<TestServer>)).database() });
      try {
        const report = await migrateSqliteToPostgres(join(dir, "ferret.db"), pg);
        expect(report.mismatched).toEqual([]);
        expect(report.to).toEqual(report.from);
        expect(report.from).toMatchObject({
          documents: 6,
          vectors: 7,
          tables: 2,
          tableRows: 7,
          runs: 1,
          turns: 2,
          apiKeys: 1,
        });
        expect(report.from.mentions).toBeGreaterThan(0);

        const reopened = await createSqliteStore({ path: join(dir, "ferret.db"), readonly: true });
        try {
          for (const principal of [alice, harriet, acmeOwner]) {
            const vector = { principal, vector: Float32Array.from([1, 0.2, 0.1, 0]), k: 4, strategy: "exact" as const };
            const ids = (hits: { id: string }[]) => hits.map((h) => h.id);
            expect(ids(await pg.vectorSearch(vector))).toEqual(ids(await reopened.vectorSearch(vector)));
            const keyword = { principal, terms: ["vacation"], k: 10 };
            expect(ids(await pg.keywordSearch(keyword)).sort()).toEqual(
              ids(await reopened.keywordSearch(keyword)).sort(),
            );
            expect(await pg.listSources(principal)).toEqual(
              (await reopened.listSources(principal)).map(({ lastIngestAt: _, ...s }) => expect.objectContaining(s)),
            );
          }
          expect((await pg.graph.findEntities({ value: "dana", principal: alice, k: 1 })).entities[0]).toMatchObject({
            key: "dana",
            mentions: 1,
          });
          expect(await pg.getTurns("s1", alice)).toEqual(await reopened.getTurns("s1", alice));
          expect((await pg.querySql("SELECT count(*) AS n FROM tickets", alice)).rows).toEqual([{ n: 5 }]);
        } finally {
          await reopened.close();
        }
        await expect(migrateSqliteToPostgres(join(dir, "ferret.db"), pg)).rejects.toThrow(/already holds data/);
      } finally {
        await pg.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
