import type { Principal } from "../../spec/principal.js";
import type { ChunkFilter } from "../chunk-filter.js";
import { isOwner } from "../principal.js";
import type { Params } from "./db.js";

/** `allows(principal, acl)` over a jsonb array column. */
export function aclAllows(p: Params, aclColumn: string, principal: Principal): string {
  return `(${aclColumn} = '[]'::jsonb OR ${aclColumn} ?| ${p.add(principal.roles)}::text[])`;
}

/**
 * Source-level ACL for rows with a `source` column: the row's source must not be one the principal is denied.
 * A source never registered with putSource has no source-level ACL (its document ACLs still apply).
 */
export function sourceAllowed(p: Params, alias: string, principal: Principal): string {
  if (isOwner(principal)) return "true";
  return `NOT EXISTS (SELECT 1 FROM sources AS s WHERE s.tenant = ${alias}.tenant AND s.name = ${alias}.source
    AND NOT ${aclAllows(p, "s.acl", principal)})`;
}

/**
 * Tenant, ACL (source and document), sources, docId(s) and since, as a WHERE fragment over a table with the
 * chunk columns (chunks, or documents with `docColumn` = "id"). The RLS policies check tenant and ACLs again.
 */
export function chunkFilter(p: Params, filter: ChunkFilter, alias = "c", docColumn = "doc_id"): string {
  const readable = readableFilter(p, filter.principal, alias);
  const narrowing = queryFilter(p, filter, alias, docColumn);
  return narrowing === "true" ? readable : `${readable} AND ${narrowing}`;
}

/** Tenant and ACLs (source and row) over a table with tenant, acl and source columns: the rows the principal may read. */
export function readableFilter(p: Params, principal: Principal, alias = "c"): string {
  const clauses = [`${alias}.tenant = ${p.add(principal.tenant)}`];
  if (!isOwner(principal)) {
    clauses.push(aclAllows(p, `${alias}.acl`, principal));
    clauses.push(sourceAllowed(p, alias, principal));
  }
  return clauses.join(" AND ");
}

/** What a query narrows the readable rows to (sources, docId(s), since), as a WHERE fragment; "true" when nothing. */
export function queryFilter(p: Params, filter: ChunkFilter, alias = "c", docColumn = "doc_id"): string {
  const clauses: string[] = [];
  if (filter.sources && filter.sources.length > 0) clauses.push(`${alias}.source = ANY (${p.add(filter.sources)})`);
  if (filter.docId !== undefined) clauses.push(`${alias}.${docColumn} = ${p.add(filter.docId)}`);
  if (filter.docIds !== undefined) clauses.push(`${alias}.${docColumn} = ANY (${p.add(filter.docIds)})`);
  if (filter.since !== undefined) clauses.push(`${alias}.updated_at >= ${p.add(filter.since)}`);
  return clauses.length > 0 ? clauses.join(" AND ") : "true";
}
