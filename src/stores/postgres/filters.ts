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
  const clauses = [`${alias}.tenant = ${p.add(filter.principal.tenant)}`];
  if (!isOwner(filter.principal)) {
    clauses.push(aclAllows(p, `${alias}.acl`, filter.principal));
    clauses.push(sourceAllowed(p, alias, filter.principal));
  }
  if (filter.sources && filter.sources.length > 0) clauses.push(`${alias}.source = ANY (${p.add(filter.sources)})`);
  if (filter.docId !== undefined) clauses.push(`${alias}.${docColumn} = ${p.add(filter.docId)}`);
  if (filter.docIds !== undefined) clauses.push(`${alias}.${docColumn} = ANY (${p.add(filter.docIds)})`);
  if (filter.since !== undefined) clauses.push(`${alias}.updated_at >= ${p.add(filter.since)}`);
  return clauses.join(" AND ");
}
