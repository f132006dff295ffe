/** In-memory documents into a store, through the same chunking, hashing and embedding as ingested files. */

import { emptyIngestSummary, type IngestSummary } from "../ingest/ingest.js";
import { prepareDocument } from "../ingest/pool/parse-file.js";
import type { ChunkRecord } from "../spec/document.js";
import { AccessDeniedError, InvalidInputError } from "../spec/errors.js";
import { allows, type Principal } from "../spec/principal.js";
import type { StoreV1 } from "../spec/store.js";

/** A document given as text (`ferret.add`). */
export interface AddDocument {
  /** Stable within its source: adding the same id again replaces the document when its content changed. */
  id: string;
  text: string;
  title?: string;
  metadata?: Record<string, unknown>;
  /** The source it belongs to; default the `source` of the call. */
  source?: string;
  /** ISO date, when known (used by `since` filters). */
  updatedAt?: string;
  /** Roles that may read this document, besides the source's own ACL. */
  acl?: string[];
}

export interface AddOptions {
  /** Default source of documents that name none; default `documents`. */
  source?: string;
  /** Description of a source created by this call (an existing source keeps its own). */
  description?: string;
  /** ACL of a source created by this call. */
  acl?: string[];
}

const NAME = /^[a-z][a-z0-9_]{0,127}$/;
/** Text per document, at most: the cap of an ingested file. */
const MAX_TEXT = 50 * 1024 * 1024;

/**
 * Writes in-memory documents into documents sources of the principal's tenant, creating a missing source.
 * Unchanged documents (same content hash) are skipped; `embed` fills the vectors of the chunks written.
 */
export async function addDocuments(options: {
  store: StoreV1;
  principal: Principal;
  documents: readonly AddDocument[];
  add?: AddOptions;
  embed?: (chunks: ChunkRecord[]) => Promise<void>;
}): Promise<IngestSummary> {
  const started = performance.now();
  const { store, principal } = options;
  const defaultSource = options.add?.source ?? "documents";
  const groups = new Map<string, AddDocument[]>();
  for (const [i, doc] of options.documents.entries()) {
    const where = `documents[${i}]`;
    if (typeof doc?.id !== "string" || doc.id.trim() === "" || doc.id.length > 1024)
      throw new InvalidInputError(`${where}.id must be a non-empty string of at most 1024 characters`, {
        field: `${where}.id`,
      });
    if (typeof doc.text !== "string" || doc.text.length > MAX_TEXT)
      throw new InvalidInputError(`${where}.text must be a string of at most ${MAX_TEXT} characters`, {
        field: `${where}.text`,
      });
    const source = doc.source ?? defaultSource;
    if (!NAME.test(source))
      throw new InvalidInputError(`${where}.source must be lower_snake_case, got "${source}"`, {
        field: `${where}.source`,
      });
    const group = groups.get(source) ?? [];
    if (group.some((d) => d.id === doc.id))
      throw new InvalidInputError(`${where}.id "${doc.id}" appears twice in source "${source}"`, {
        field: `${where}.id`,
      });
    group.push(doc);
    groups.set(source, group);
  }
  const summary = emptyIngestSummary();
  // Every source of the tenant, readable or not: one the principal cannot read is not written into.
  const all = await store.listSources({ tenant: principal.tenant, user: principal.user, roles: ["*"] });
  for (const [source, docs] of groups) {
    const existing = all.find((s) => s.name === source);
    if (existing && !allows(principal, existing.acl))
      throw new AccessDeniedError(`cannot add documents to source "${source}"`, { source });
    if (existing && existing.kind !== "documents")
      throw new InvalidInputError(
        `source "${source}" is a ${existing.kind} source; documents go into documents sources`,
        {
          field: "source",
        },
      );
    const acl = existing?.acl ?? options.add?.acl ?? [];
    if (!existing)
      await store.putSource({
        name: source,
        tenant: principal.tenant,
        kind: "documents",
        description: options.add?.description ?? "",
        acl,
      });
    summary.sources.push(source);
    const known = await store.documentHashes(principal.tenant, source);
    const target = { source, tenant: principal.tenant, sourceAcl: acl, known };
    const writes = [];
    for (const doc of docs) {
      const prepared = prepareDocument(
        {
          id: doc.id,
          title: doc.title ?? doc.id,
          text: doc.text,
          acl: doc.acl ?? [],
          metadata: doc.metadata ?? {},
          ...(doc.updatedAt !== undefined ? { updatedAt: doc.updatedAt } : {}),
        },
        target,
      );
      if (prepared.kind === "empty") summary.skipped.push({ file: doc.id, reason: "no text to index" });
      else if (prepared.kind === "unchanged") summary.unchanged++;
      else {
        writes.push(prepared.write);
        if (known.has(doc.id)) summary.updated++;
        else summary.added++;
      }
    }
    const chunks = writes.flatMap((w) => w.chunks);
    if (options.embed && chunks.length > 0) await options.embed(chunks);
    if (writes.length > 0) await store.writeDocuments(writes);
    summary.chunks += chunks.length;
  }
  summary.ms = Math.round(performance.now() - started);
  return summary;
}
