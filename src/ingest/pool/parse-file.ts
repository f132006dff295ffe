import type { DocumentRecord, DocumentWrite } from "../../spec/document.js";
import { chunkDocument } from "../chunker.js";
import { attachEntities } from "../entities-at-ingest.js";
import { contentHash } from "../hash.js";
import { identityWords, missingIdentity } from "../identity.js";
import type { IngestLimits } from "../limits.js";
import { loadFile } from "../load-file.js";
import type { LoadedTable } from "../types.js";

/** One file to parse: plain data, so it can cross to a worker thread. */
export interface ParseTask {
  absPath: string;
  /** Id base: the path relative to the ingest root, with `/` separators. */
  relPath: string;
  /** For table loaders: the table name. */
  tableName?: string;
  /** Decoding caps, resolved (plain numbers, so they cross to a worker). */
  limits: IngestLimits;
  source: string;
  tenant: string;
  /** The source's ACL, part of each document's content hash. */
  sourceAcl: string[];
  /** Content hashes stored for this file's documents: a document whose hash is unchanged is not chunked. */
  known: Map<string, string>;
}

export type ParsedDocument =
  /** Nothing to index (blank text). */
  | { kind: "empty"; id: string }
  | { kind: "unchanged"; id: string }
  /** New or changed: the document with its chunks and their entities, ready to write. */
  | { kind: "changed"; id: string; write: DocumentWrite };

/** A parsed file, as plain data (what a parse worker sends back). */
export type ParsedFile =
  | { kind: "skipped"; reason: string }
  | { kind: "failed"; reason: string }
  | { kind: "loaded"; warnings: string[]; table?: LoadedTable; docs: ParsedDocument[] };

/**
 * Loads one file, then chunks each new or changed document and finds its entities: everything about a file
 * that needs no store. Runs in a parse worker, or in process when there is none.
 */
export async function parseFile(task: ParseTask): Promise<ParsedFile> {
  const outcome = await loadFile({
    absPath: task.absPath,
    relPath: task.relPath,
    tableName: task.tableName,
    limits: task.limits,
  });
  if (outcome.kind === "skipped") return { kind: "skipped", reason: outcome.reason };
  if (outcome.kind === "failed") return { kind: "failed", reason: outcome.reason };
  const docs: ParsedDocument[] = [];
  for (const loaded of outcome.docs) {
    if (loaded.text.trim() === "") {
      docs.push({ kind: "empty", id: loaded.id });
      continue;
    }
    const hash = contentHash({ ...loaded, sourceAcl: task.sourceAcl });
    if (task.known.get(loaded.id) === hash) {
      docs.push({ kind: "unchanged", id: loaded.id });
      continue;
    }
    const doc: DocumentRecord = { ...loaded, source: task.source, tenant: task.tenant, contentHash: hash };
    // Every chunk is findable by its document's own identifier (row key, JSON line id, file name).
    const identity = identityWords(loaded.id);
    const chunks = chunkDocument({ doc }).map((c) => {
      const extra = missingIdentity(identity, c.searchText, doc.title);
      return extra === "" ? c : { ...c, searchText: `${c.searchText} ${extra}` };
    });
    docs.push({ kind: "changed", id: loaded.id, write: attachEntities({ doc, chunks }) });
  }
  return { kind: "loaded", warnings: outcome.warnings, table: outcome.table, docs };
}
