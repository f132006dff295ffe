/**
 * The throw-away cluster takes server parameters at start (the stores bench sizes shared_buffers with them), and
 * refuses a name or value that could carry more than one parameter into pg_ctl's option string.
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { clusterAvailable, SERVER_MS, startCluster, stopServers, type TestServer } from "./test-servers.js";

describe("startCluster settings", () => {
  it("refuses a setting whose name or value is not a plain word", async () => {
    await expect(startCluster({ "shared_buffers -c fsync": "on" })).rejects.toThrow(/invalid server setting/);
    await expect(startCluster({ shared_buffers: "1GB -c fsync=on" })).rejects.toThrow(/invalid server setting/);
    await expect(startCluster({ work_mem: "'64MB'" })).rejects.toThrow(/invalid server setting/);
  });

  const started: Promise<TestServer>[] = [];
  afterAll(() => stopServers(started), SERVER_MS.stop);
  it.skipIf(!clusterAvailable())(
    "starts the cluster with the given parameters",
    async () => {
      const server = startCluster({ shared_buffers: "48MB", work_mem: "3MB" });
      started.push(server);
      const client = new pg.Client({ connectionString: (await server).url });
      await client.connect();
      try {
        const shown = await client.query<{ name: string; setting: string }>(
          "SELECT name, current_setting(name) AS setting FROM unnest(ARRAY['shared_buffers', 'work_mem', 'fsync']) AS name",
        );
        expect(Object.fromEntries(shown.rows.map((r) => [r.name, r.setting]))).toEqual({
          shared_buffers: "48MB",
          work_mem: "3MB",
          fsync: "off",
        });
      } finally {
        await client.end();
      }
    },
    SERVER_MS.start,
  );
});
