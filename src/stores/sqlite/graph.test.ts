import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { graphOf } from "../../spec/graph.js";
import { runGraphSuite } from "../graph-suite.js";
import { createSqliteStore } from "./index.js";

runGraphSuite("sqlite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ferret-graph-"));
  const store = await createSqliteStore({ path: join(dir, "ferret.db") });
  return { store, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
});

describe("SqliteStore.graph", () => {
  it("is the entity graph capability that graphOf finds", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ferret-graph-"));
    const store = await createSqliteStore({ path: join(dir, "ferret.db") });
    try {
      expect(graphOf(store)?.specificationVersion).toBe("v1");
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
