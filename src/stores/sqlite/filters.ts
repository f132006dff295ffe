import type { Principal } from "../../spec/principal.js";
import { type ChunkFilter, narrowsChunks } from "../chunk-filter.js";
import { isOwner } from "../principal.js";

/** A WHERE fragment and its positional parameters. */
export interface SqlFragment {
  sql: string;
  params: unknown[];
}

/** SQL for `allows(principal, <aclColumn>)` over a JSON array column; `?` binds the roles as JSON. */
export function aclAllows(aclColumn: string): string {
  return `(${aclColumn} = '[]' OR EXISTS (SELECT 1 FROM json_each(${aclColumn}) AS a WHERE a.value IN (SELECT value FROM json_each(?))))`;
}

/**
 * Source-level ACL for rows with a `source` column: the row's source must not be one the principal is denied.
 * A source that was never registered with putSource has no source-level ACL (its document ACLs still apply).
 */
export function sourceAllowed(sourceColumn: string, tenantColumn: string, principal: Principal): SqlFragment {
  if (isOwner(principal)) return { sql: "1", params: [] };
  return {
    sql: `${sourceColumn} NOT IN (SELECT s.name FROM sources AS s WHERE s.tenant = ${tenantColumn} AND NOT ${aclAllows("s.acl")})`,
    params: [JSON.stringify(principal.roles)],
  };
}

/** Tenant, ACL (source and document), sources, docId(s) and since, as a WHERE fragment over chunks aliased `c`. */
export function chunkFilter(filter: ChunkFilter): SqlFragment & { narrowed: boolean } {
  const clauses = ["c.tenant = ?"];
  const params: unknown[] = [filter.principal.tenant];
  if (!isOwner(filter.principal)) {
    const roles = JSON.stringify(filter.principal.roles);
    clauses.push(aclAllows("c.acl"));
    params.push(roles);
    const source = sourceAllowed("c.source", "c.tenant", filter.principal);
    clauses.push(source.sql);
    params.push(...source.params);
  }
  if (filter.sources && filter.sources.length > 0) {
    clauses.push("c.source IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(filter.sources));
  }
  if (filter.docId !== undefined) {
    clauses.push("c.doc_id = ?");
    params.push(filter.docId);
  }
  if (filter.docIds !== undefined) {
    clauses.push("c.doc_id IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(filter.docIds));
  }
  if (filter.since !== undefined) {
    clauses.push("c.updated_at >= ?");
    params.push(filter.since);
  }
  return { sql: clauses.join(" AND "), params, narrowed: narrowsChunks(filter) };
}
