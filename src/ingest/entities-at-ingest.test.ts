import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { DocumentWrite } from "../spec/document.js";
import { graphOf } from "../spec/graph.js";
import type { Principal } from "../spec/principal.js";
import { createSqliteStore } from "../stores/sqlite/index.js";
import { attachEntities, chunkEntities, titleEntities } from "./entities-at-ingest.js";
import { ingestPath } from "./ingest.js";

const staff: Principal = { tenant: "default", user: "s", roles: ["staff"] };

describe("titleEntities", () => {
  it("makes the title an entity that defines, plus the entities inside it", () => {
    expect(titleEntities("Runbook for refund-orchestrator")).toEqual([
      { text: "Runbook for refund-orchestrator", type: "title", role: "defines" },
      { text: "refund-orchestrator", type: "code", role: "defines" },
    ]);
    expect(titleEntities("Payments Core")).toEqual([{ text: "Payments Core", type: "title", role: "defines" }]);
    expect(titleEntities("  ")).toEqual([]);
  });
});

describe("chunkEntities", () => {
  it("leaves out HTTP methods read as names", () => {
    expect(chunkEntities("Then POST /v2/refunds with Dana Smith.")).toEqual([
      { text: "/v2/refunds", type: "path" },
      { text: "Dana Smith", type: "name" },
    ]);
  });
});

describe("attachEntities", () => {
  it("gives every chunk its own mentions and its document's title entities", () => {
    const write: DocumentWrite = {
      doc: {
        id: "a.md",
        source: "s",
        tenant: "t",
        title: "Ledger",
        acl: [],
        contentHash: "h",
        text: "x",
        metadata: {},
      },
      chunks: [
        {
          id: "a.md::0",
          docId: "a.md",
          ordinal: 0,
          text: "Call 10.0.0.5 about INC-7.",
          section: [],
          start: 0,
          end: 1,
          tokens: 5,
          searchText: "",
        },
        {
          id: "a.md::1",
          docId: "a.md",
          ordinal: 1,
          text: "nothing here",
          section: [],
          start: 1,
          end: 2,
          tokens: 2,
          searchText: "",
        },
      ],
    };
    attachEntities(write);
    expect(write.chunks[0]?.entities).toEqual([
      { text: "Ledger", type: "title", role: "defines" },
      { text: "10.0.0.5", type: "ip" },
      { text: "INC-7", type: "identifier" },
    ]);
    expect(write.chunks[1]?.entities).toEqual([{ text: "Ledger", type: "title", role: "defines" }]);
  });
});

describe("ingest builds the entity graph", () => {
  it("links entities across documents, hides an hr-only folder, and replaces mentions on re-ingest", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ferret-entities-"));
    try {
      const docs = join(dir, "docs");
      await mkdir(docs);
      await writeFile(
        join(docs, "refunds.md"),
        "# Refunds API\n\nPOST /v2/refunds is handled by refund-orchestrator.\n",
      );
      await writeFile(
        join(docs, "orchestrator.md"),
        "# refund-orchestrator\n\nThe refund-orchestrator service is owned by the Payments Core team.\n",
      );
      await writeFile(join(docs, "team.md"), "# Payments Core\n\nThe Payments Core team is led by Hannah Cho.\n");
      await writeFile(
        join(docs, "review.md"),
        "---\nacl: [hr]\n---\n# Compensation\n\nHannah Cho was reviewed by Dana Smith.\n",
      );
      const store = await createSqliteStore({ path: join(dir, "ferret.db") });
      try {
        await ingestPath({ store, path: docs, source: "docs" });
        const graph = graphOf(store);
        if (!graph) throw new Error("the SQLite store has a graph");
        const path = await graph.path({ from: "/v2/refunds", to: "Hannah Cho", maxDepth: 5, principal: staff });
        expect(path?.entities.map((e) => e.key)).toEqual([
          "/v2/refunds",
          "refund-orchestrator",
          "payments core",
          "hannah cho",
        ]);
        expect((await graph.findEntities({ value: "Dana Smith", principal: staff, k: 3 })).entities).toEqual([]);
        const hr = { ...staff, roles: ["hr"] };
        expect((await graph.findEntities({ value: "Dana Smith", principal: hr, k: 3 })).entities).toHaveLength(1);

        await writeFile(join(docs, "team.md"), "# Payments Core\n\nThe Payments Core team is led by Lee Park.\n");
        await ingestPath({ store, path: docs, source: "docs" });
        const lee = await graph.path({ from: "/v2/refunds", to: "Lee Park", maxDepth: 5, principal: staff });
        expect(lee?.edges).toHaveLength(3);
        expect(
          await graph.path({ from: "/v2/refunds", to: "Hannah Cho", maxDepth: 5, principal: staff }),
        ).toBeUndefined();
      } finally {
        await store.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
