import type { Passage } from "../../spec/passage.js";
import type { Principal } from "../../spec/principal.js";
import type { SourceInfo, SourceRecord } from "../../spec/source.js";
import { createFakeRetriever } from "../../tools/testing/fake-retriever.js";
import { createMemoryStore } from "../../tools/testing/memory-store.js";

/** A small world for loop tests: two readable sources, one the principal may not read. */
export const PASSAGES: Passage[] = [
  {
    id: "refunds.md::0",
    docId: "refunds.md",
    source: "api_docs",
    text: "Refunds time out after 30 seconds when the payment gateway does not answer.",
    score: 0,
  },
  {
    id: "limits.md::0",
    docId: "limits.md",
    source: "api_docs",
    text: "The API allows 100 requests per minute per key.",
    score: 0,
  },
  {
    id: "oncall.md::0",
    docId: "oncall.md",
    source: "handbook",
    text: "The on-call engineer for payments is Dana Smith.",
    score: 0,
  },
  {
    id: "leave.md::0",
    docId: "leave.md",
    source: "handbook",
    text: "Employees get 25 days of paid leave a year.",
    score: 0,
  },
  {
    id: "salaries.md::0",
    docId: "salaries.md",
    source: "finance",
    text: "Dana Smith earns a secret salary.",
    score: 0,
  },
];

export const SOURCE_RECORDS: SourceRecord[] = [
  { name: "api_docs", tenant: "default", kind: "documents", description: "API reference", acl: [] },
  { name: "handbook", tenant: "default", kind: "documents", description: "Employee handbook", acl: [] },
  { name: "finance", tenant: "default", kind: "documents", description: "Finance records", acl: ["finance"] },
];

export const PRINCIPAL: Principal = { tenant: "default", user: "ann", roles: ["staff"] };

export async function createWorld(options: { passages?: Passage[] } = {}) {
  const store = createMemoryStore({
    sources: SOURCE_RECORDS,
    documents: (options.passages ?? PASSAGES).map((p) => ({
      id: p.docId,
      source: p.source,
      tenant: "default",
      title: p.docId,
      acl: [],
      contentHash: p.docId,
      text: p.text,
      metadata: {},
    })),
  });
  const sources: SourceInfo[] = await store.listSources(PRINCIPAL);
  // The fake retriever trusts its `sources` filter: ACL is the caller's job, as the tools and loop must do it.
  const retriever = createFakeRetriever({ passages: options.passages ?? PASSAGES });
  return { store, sources, retriever, principal: PRINCIPAL };
}

/** Ids 1, 2, 3, ... and a clock that advances by `step` ms per reading. */
export function deterministic(step = 1) {
  let id = 0;
  let t = 1_700_000_000_000;
  return { newId: () => `id${++id}`, now: () => (t += step) };
}
