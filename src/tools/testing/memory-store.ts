import type { DocumentRecord } from "../../spec/document.js";
import { StoreError } from "../../spec/errors.js";
import { allows, type Principal } from "../../spec/principal.js";
import type { SourceInfo, SourceRecord } from "../../spec/source.js";
import type { RunRecord, StoreV1 } from "../../spec/store.js";

function noDialect(): never {
  throw new StoreError("SQL is not supported by the memory store");
}

export interface MemoryStore extends StoreV1 {
  readonly runs: Map<string, RunRecord>;
}

/**
 * A tiny in-memory StoreV1 for tests of the loop and tools: sources, documents (for `getDocument` and
 * `getDocumentHeader`) and runs.
 * Everything else throws, so a test that needs more says so loudly.
 */
export function createMemoryStore(
  options: { sources?: SourceRecord[]; documents?: DocumentRecord[] } = {},
): MemoryStore {
  const sources = options.sources ?? [];
  const documents = options.documents ?? [];
  const runs = new Map<string, RunRecord>();
  const readable = (principal: Principal, source: string) =>
    sources.some((s) => s.name === source && s.tenant === principal.tenant && allows(principal, s.acl));
  const unsupported = (what: string) => () =>
    Promise.reject(new StoreError(`${what} is not supported by the memory store`));
  const getDocument: StoreV1["getDocument"] = async (docId, principal, lookup = {}) =>
    // Same rule as every store: the given source's document, else the readable one whose source sorts first.
    documents
      .filter((d) => d.id === docId && d.tenant === principal.tenant)
      .filter((d) => lookup.source === undefined || d.source === lookup.source)
      .filter((d) => readable(principal, d.source) && allows(principal, d.acl))
      .sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0))[0];
  return {
    specificationVersion: "v1",
    provider: "memory",
    // It keeps no tables: `tableStoreOf` finds none, and its dialect only throws.
    capabilities: new Set(["documents", "runs"]),
    sqlDialect: {
      daysBetween: noDialect,
      equalsIgnoreCase: noDialect,
      datePrefix: noDialect,
      joinValues: noDialect,
      present: noDialect,
      absent: noDialect,
      round: noDialect,
      emptyAsNull: noDialect,
    },
    runs,
    putSource: unsupported("putSource"),
    async listSources(principal) {
      return sources
        .filter((s) => readable(principal, s.name))
        .map((s): SourceInfo => ({ ...s, documents: documents.filter((d) => d.source === s.name).length, chunks: 0 }));
    },
    removeSource: unsupported("removeSource"),
    documentHashes: unsupported("documentHashes"),
    writeDocuments: unsupported("writeDocuments"),
    removeDocuments: unsupported("removeDocuments"),
    getDocument,
    async getDocumentHeader(docId, principal, lookup) {
      const doc = await getDocument(docId, principal, lookup);
      if (!doc) return undefined;
      const { text: _text, ...header } = doc;
      return header;
    },
    getChunks: unsupported("getChunks"),
    keywordSearch: unsupported("keywordSearch"),
    vectorSearch: unsupported("vectorSearch"),
    writeTable: unsupported("writeTable"),
    removeTables: unsupported("removeTables"),
    dataVersion: async () => 0,
    querySql: unsupported("querySql"),
    embedderInfo: async () => undefined,
    setEmbedderInfo: unsupported("setEmbedderInfo"),
    cachedEmbeddings: async () => new Map(),
    cacheEmbeddings: unsupported("cacheEmbeddings"),
    async saveRun(run) {
      runs.set(run.runId, structuredClone(run));
    },
    async getRun(runId, principal) {
      const run = runs.get(runId);
      return run && run.tenant === principal.tenant ? run : undefined;
    },
    appendTurns: unsupported("appendTurns"),
    getTurns: async () => [],
    close: async () => {},
  };
}
