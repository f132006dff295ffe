import type { ChunkRecord, DocumentHeader, DocumentRecord } from "../../spec/document.js";
import type { Principal } from "../../spec/principal.js";
import type { DocumentLookup } from "../../spec/store.js";
import {
  type ChunkRow,
  chunksInOrder,
  type DocumentRow,
  documentColumns,
  documentFromRow,
  documentHeaderFromRow,
} from "../document-row.js";
import { isOwner } from "../principal.js";
import type { StoreContext } from "./context.js";
import { aclAllows, sourceAllowed } from "./filters.js";

/** WHERE fragment: the principal may read the row of `alias` (tenant, source ACL, document ACL). */
function readable(alias: string, principal: Principal): { sql: string; params: unknown[] } {
  if (isOwner(principal)) return { sql: `${alias}.tenant = ?`, params: [principal.tenant] };
  const source = sourceAllowed(`${alias}.source`, `${alias}.tenant`, principal);
  return {
    sql: `${alias}.tenant = ? AND ${aclAllows(`${alias}.acl`)} AND ${source.sql}`,
    params: [principal.tenant, JSON.stringify(principal.roles), ...source.params],
  };
}

/**
 * The document `docId` the principal may read: of `source` when given, else (an id held by several readable
 * sources) the one whose source sorts first, so the choice is deterministic (see `DocumentLookup`).
 */
export function getDocument(
  ctx: StoreContext,
  docId: string,
  principal: Principal,
  options: DocumentLookup = {},
): DocumentRecord | undefined {
  const row = documentRow<DocumentRow>(ctx, { text: true }, docId, principal, options);
  return row && documentFromRow(row);
}

/** `getDocument` without the text column: the text of a long document is not read for its metadata. */
export function getDocumentHeader(
  ctx: StoreContext,
  docId: string,
  principal: Principal,
  options: DocumentLookup = {},
): DocumentHeader | undefined {
  const row = documentRow<Omit<DocumentRow, "text">>(ctx, { text: false }, docId, principal, options);
  return row && documentHeaderFromRow(row);
}

function documentRow<Row>(
  ctx: StoreContext,
  columns: { text: boolean },
  docId: string,
  principal: Principal,
  options: DocumentLookup,
): Row | undefined {
  const where = readable("d", principal);
  const bySource = options.source === undefined ? "" : "AND d.source = ?";
  return ctx
    .stmt(
      `SELECT ${documentColumns("d", columns)} FROM documents AS d WHERE d.id = ? ${bySource} AND ${where.sql} ORDER BY d.source LIMIT 1`,
    )
    .get(docId, ...(options.source === undefined ? [] : [options.source]), ...where.params) as Row | undefined;
}

/**
 * Chunks by id, in the order asked, leaving out those missing or not readable by the principal. Of `source`
 * when given; else an id held by several readable sources gives the chunk whose source sorts first.
 */
export function getChunks(
  ctx: StoreContext,
  ids: string[],
  principal: Principal,
  options: DocumentLookup = {},
): ChunkRecord[] {
  if (ids.length === 0) return [];
  const where = readable("c", principal);
  const bySource = options.source === undefined ? "" : "AND c.source = ?";
  const rows = ctx
    .stmt(
      `SELECT c.id, c.source, c.doc_id, c.ordinal, c.text, c.section, c.start, c."end", c.tokens, f.body
       FROM chunks AS c CROSS JOIN chunks_fts AS f ON f.rowid = c.rowid
       WHERE c.id IN (SELECT value FROM json_each(?)) ${bySource} AND ${where.sql}
       ORDER BY c.source DESC`,
    )
    .all(JSON.stringify(ids), ...(options.source === undefined ? [] : [options.source]), ...where.params) as ChunkRow[];
  // Rows come last-source-first, so the first source of each id is the one the map keeps.
  return chunksInOrder(ids, rows);
}
