/**
 * The PostgreSQL store's approximate kNN (pgvector HNSW) agrees with its exact scan. The corpus is the hard
 * case the stores bench met: dense vectors without low-dimensional structure (like feature-hashed text),
 * queried with sparse vectors that lie near none of them (like the vector of a short query). pgvector's
 * default search width (hnsw.ef_search 40) over a graph of its default build found under half of the exact top 10
 * there; on this corpus the old settings found 0.79 of it (the test fails them).
 */
import { expect, it } from "vitest";
import { gaussian, type Random, seededRandom } from "../../../test/fixtures/prng.js";
import type { DocumentWrite } from "../../spec/document.js";
import { acmeOwner, fixtureWrite } from "../../testing/index.js";
import { createPostgresStore } from "./index.js";
import { describeOnServers } from "./test-servers.js";

const DIMS = 128;
const DOCUMENTS = 600;
const CHUNKS_PER_DOCUMENT = 5;
const QUERIES = 40;
const K = 10;

function unit(values: number[]): number[] {
  const norm = Math.sqrt(values.reduce((sum, v) => sum + v * v, 0));
  return values.map((v) => v / norm);
}

/** A dense unit vector with independent Gaussian coordinates. */
function dense(random: Random): number[] {
  return unit(Array.from({ length: DIMS }, () => gaussian(random)));
}

/** A unit vector with three coordinates of ±1 (the rest 0), as a short text's feature-hashed vector. */
function sparse(random: Random): number[] {
  const v = new Array<number>(DIMS).fill(0);
  for (let set = 0; set < 3; ) {
    const at = Math.floor(random() * DIMS);
    if (v[at] !== 0) continue;
    v[at] = random() < 0.5 ? -1 : 1;
    set++;
  }
  return unit(v);
}

function corpus(random: Random): DocumentWrite[] {
  return Array.from({ length: DOCUMENTS }, (_, d) =>
    fixtureWrite({
      id: `notes/n${d}.md`,
      source: "notes",
      title: `Note ${d}`,
      paragraphs: Array.from({ length: CHUNKS_PER_DOCUMENT }, (_, c) => `Paragraph ${c} of note ${d}.`),
      vectors: Array.from({ length: CHUNKS_PER_DOCUMENT }, () => dense(random)),
    }),
  );
}

describeOnServers(
  (kind) => `approximate kNN against exact search (${kind})`,
  (server) => {
    it(`finds at least 90% of the exact top ${K} with the default search width`, async () => {
      const { pgvector } = await server();
      const store = await createPostgresStore({ url: await (await server()).database(), poolSize: 2 });
      try {
        if (!pgvector) {
          // Without pgvector every search is the exact scan: nothing approximate to compare.
          expect(store.missing.map((m) => m.feature)).toContain("vector index");
          return;
        }
        expect(store.missing.map((m) => m.feature)).not.toContain("vector index");
        const random = seededRandom(20_261_127);
        const writes = corpus(random);
        for (let at = 0; at < writes.length; at += 50) await store.writeDocuments(writes.slice(at, at + 50));
        let found = 0;
        for (let q = 0; q < QUERIES; q++) {
          const vector = Float32Array.from(sparse(random));
          const exact = await store.vectorSearch({ principal: acmeOwner, vector, k: K, strategy: "exact" });
          const approx = await store.vectorSearch({ principal: acmeOwner, vector, k: K, strategy: "approximate" });
          expect(exact).toHaveLength(K);
          expect(approx).toHaveLength(K);
          const truth = new Set(exact.map((hit) => hit.id));
          found += approx.filter((hit) => truth.has(hit.id)).length;
        }
        expect(found / (QUERIES * K)).toBeGreaterThanOrEqual(0.9);
      } finally {
        await store.close();
      }
    }, 600_000);
  },
);
