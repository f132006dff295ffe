import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFerret, type Ferret } from "../index.js";
import type { EmbedderV1 } from "../spec/embedder.js";

/**
 * An embedder that knows meanings, not spellings: words of one concept share a dimension, so "automobile" and
 * "car" land together while an error code like ERR-4471 has no dimension of its own. Keyword search finds the
 * code and misses the synonym; vector search does the opposite; hybrid must find both.
 */
const CONCEPTS: string[][] = [
  ["car", "cars", "automobile", "automobiles", "vehicle"],
  ["repair", "repairs", "fix", "fixing", "maintenance"],
  ["error", "errors", "failure", "fault"],
  ["lunch", "meal", "canteen", "food"],
];

const conceptEmbedder: EmbedderV1 = {
  specificationVersion: "v1",
  id: "test:concepts",
  dimensions: () => CONCEPTS.length + 1,
  async embed(texts) {
    return texts.map((text) => {
      const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
      const v = new Float32Array(CONCEPTS.length + 1);
      v[CONCEPTS.length] = 0.1;
      for (const w of words) {
        CONCEPTS.forEach((c, i) => {
          if (c.includes(w)) v[i] = (v[i] ?? 0) + 1;
        });
      }
      return v;
    });
  },
};

let dir: string;
let ferret: Ferret;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ferret-hybrid-"));
  const docs = join(dir, "docs");
  mkdirSync(docs);
  writeFileSync(join(docs, "garage.md"), "# Garage\n\nAutomobile maintenance is booked through the fleet desk.\n");
  writeFileSync(
    join(docs, "codes.md"),
    "# Codes\n\nERR-4471 means the canteen card reader has a fault, so a meal cannot be paid by card.\n",
  );
  // Words the embedder has no concept for: the nearest vector to a bare error code.
  writeFileSync(join(docs, "notice.md"), "# Notice\n\nVisitors sign in at the front desk.\n");
  writeFileSync(join(docs, "canteen.md"), "# Canteen\n\nThe canteen serves food from noon until two.\n");
  ferret = await createFerret({ db: join(dir, "f.db"), embedder: conceptEmbedder, env: {} });
  await ferret.ingest(docs);
});

afterAll(async () => {
  await ferret?.close();
  rmSync(dir, { recursive: true, force: true });
});

const top = async (query: string, mode?: "keyword" | "vector" | "hybrid") =>
  (await ferret.search(query, { k: 1, ...(mode ? { mode } : {}) })).map((p) => p.docId);

describe("hybrid retrieval", () => {
  it("each side alone misses what the other finds", async () => {
    expect(await top("car repair", "keyword")).not.toContain("garage.md");
    expect(await top("car repair", "vector")).toEqual(["garage.md"]);
    expect(await top("ERR-4471", "keyword")).toEqual(["codes.md"]);
    expect(await top("ERR-4471", "vector")).not.toContain("codes.md");
  });

  it("is the default with an embedder and finds both the synonym and the exact code", async () => {
    expect(await top("car repair")).toEqual(["garage.md"]);
    expect(await top("ERR-4471")).toEqual(["codes.md"]);
  });
});
