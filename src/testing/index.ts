/**
 * `ferret/testing`: the store conformance suites, one per capability, for adapters to run under vitest (a peer
 * dependency of this entry only; the main entry never loads it).
 *
 *   runStoreSuites("mystore", open, { capabilities: ["documents", "keyword", "runs"] });
 */
import { describe, expect, it } from "vitest";
import { STORE_CAPABILITIES, type StoreCapability } from "../spec/store.js";
import { runDocumentsSuite } from "./documents-suite.js";
import type { OpenStore } from "./fixtures.js";
import { runGraphSuite } from "./graph-suite.js";
import { runKeysSuite, runSpendSuite } from "./keys-suite.js";
import { runKeywordSuite } from "./keyword-suite.js";
import { runRunsSuite } from "./runs-suite.js";
import { runSessionsSuite } from "./sessions-suite.js";
import { runTablesSuite } from "./tables-suite.js";
import { runVectorSuite } from "./vector-suite.js";

export * from "./fixtures.js";
export { GRAPH_DOCS, type GraphFixture, graphWrite, runGraphSuite, seedGraph } from "./graph-suite.js";
export {
  runDocumentsSuite,
  runKeysSuite,
  runKeywordSuite,
  runRunsSuite,
  runSessionsSuite,
  runSpendSuite,
  runTablesSuite,
  runVectorSuite,
};

/** The conformance suite of each capability. */
export const CAPABILITY_SUITES: Record<StoreCapability, (name: string, open: OpenStore) => void> = {
  documents: runDocumentsSuite,
  keyword: runKeywordSuite,
  vector: runVectorSuite,
  tables: runTablesSuite,
  graph: runGraphSuite,
  sessions: runSessionsSuite,
  runs: runRunsSuite,
  keys: runKeysSuite,
  spend: runSpendSuite,
};

export interface StoreSuitesOptions {
  /**
   * The capabilities the store declares: their suites run, the others are listed as skipped. A test checks the
   * opened store declares exactly these, so the list cannot drift from the store.
   */
  capabilities: Iterable<StoreCapability>;
  /** False for a server that cannot stop a running query: the tables suite skips its time-limit tests. */
  stopsSql?: boolean;
}

/** Runs the suite of every capability the store declares (`documents` is required of every store). */
export function runStoreSuites(name: string, open: OpenStore, options: StoreSuitesOptions): void {
  const declared = new Set(options.capabilities);
  describe(`store capabilities: ${name}`, () => {
    it("declares the capabilities its suites run for, documents among them", async () => {
      const { store, cleanup } = await open();
      try {
        expect([...store.capabilities].sort()).toEqual([...declared].sort());
        expect(store.capabilities.has("documents")).toBe(true);
      } finally {
        await store.close();
        await cleanup();
      }
    });
  });
  for (const capability of STORE_CAPABILITIES) {
    if (capability === "tables" && declared.has(capability)) runTablesSuite(name, open, { stopsSql: options.stopsSql });
    else if (declared.has(capability)) CAPABILITY_SUITES[capability](name, open);
    else it.skip(`${capability} suite: ${name} (not declared)`, () => {});
  }
}
