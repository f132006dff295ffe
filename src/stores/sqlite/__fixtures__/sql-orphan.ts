// Child process for the orphan test: starts a query that never ends, prints its runner's pid, and waits to be
// killed. The test kills this process with SIGKILL (no exit handlers run) and checks that the runner dies too.
import { createSqliteStore } from "../index.js";

const store = await createSqliteStore({ path: ":memory:" });
await store.putSource({ name: "t", tenant: "default", kind: "table", description: "t", acl: [] });
await store.writeTable({
  tenant: "default",
  source: "t",
  file: "t.csv",
  schema: { name: "t", primaryKey: "n", columns: [{ name: "n", type: "INTEGER" }] },
  rows: [{ n: 1 }],
});
const principal = { tenant: "default", user: "u", roles: ["*"] };
// A first query starts the runner and gives it the tables, so the next one is sent to it at once.
await store.querySql("SELECT count(*) FROM t", principal);
// Runs until killed: nothing waits for it.
store
  .querySql("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c", principal, {
    timeoutMs: 600_000,
  })
  .catch(() => {});
// Time for the runner to be deep inside SQLite (where only a kill reaches it) before the parent dies.
await new Promise((resolve) => setTimeout(resolve, 500));
process.stdout.write(`runner ${store.sqlRunnerPids().join(",")}\n`);
setInterval(() => {}, 1000);
