import type { DocumentRecord, DocumentWrite } from "../../spec/document.js";
import { chunkDocument } from "../chunker.js";
import { attachEntities } from "../entities-at-ingest.js";
import { contentHash } from "../hash.js";
import { identityWords, missingIdentity } from "../identity.js";
import type { IngestLimits } from "../limits.js";
import { loadFile } from "../load-file.js";
import type { LoaderRegistry } from "../loader-registry.js";
import type { LoadedDocument, LoadedTable } from "../types.js";

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
  /** In-process parses only (a registry cannot cross to a worker): loaders by extension. */
  loaders?: LoaderRegistry;
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
  | { kind: "loaded"; warnings: string[]; table?: LoadedTable; tables?: LoadedTable[]; docs: ParsedDocument[] };

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
    loaders: task.loaders,
  });
  if (outcome.kind === "skipped") return { kind: "skipped", reason: outcome.reason };
  if (outcome.kind === "failed") return { kind: "failed", reason: outcome.reason };
  const docs = outcome.docs.map((loaded) => prepareDocument(loaded, task));
  return { kind: "loaded", warnings: outcome.warnings, table: outcome.table, tables: outcome.tables, docs };
}

/**
 * One loaded document, ready to write: skipped when blank or unchanged (same content hash), otherwise with
 * its chunks and their entities. Files and in-memory documents (`ferret.add`) both go through it.
 */
export function prepareDocument(
  loaded: LoadedDocument,
  target: Pick<ParseTask, "source" | "tenant" | "sourceAcl" | "known">,
): ParsedDocument {
  if (loaded.text.trim() === "") return { kind: "empty", id: loaded.id };
  const hash = contentHash({ ...loaded, sourceAcl: target.sourceAcl });
  if (target.known.get(loaded.id) === hash) return { kind: "unchanged", id: loaded.id };
  const doc: DocumentRecord = { ...loaded, source: target.source, tenant: target.tenant, contentHash: hash };
  // Every chunk is findable by its document's own identifier (row key, JSON line id, file name).
  const identity = identityWords(loaded.id);
  const chunks = chunkDocument({ doc }).map((c) => {
    const extra = missingIdentity(identity, c.searchText, doc.title);
    return extra === "" ? c : { ...c, searchText: `${c.searchText} ${extra}` };
  });
  return { kind: "changed", id: loaded.id, write: attachEntities({ doc, chunks }) };
}
