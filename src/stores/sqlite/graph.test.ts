import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runGraphSuite } from "../graph-suite.js";
import { createSqliteStore } from "./index.js";

runGraphSuite("sqlite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ferret-graph-"));
  const store = await createSqliteStore({ path: join(dir, "ferret.db") });
  return { store, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
});
