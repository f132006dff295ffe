import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { graphOf } from "../../spec/graph.js";
import { createSqliteStore } from "./index.js";

// The entity graph suite runs with every other capability suite in sqlite-store.test.ts.
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
