/**
 * The row-level-security policy of the tables keyword search scans (chunks, documents, bm25_stats): the
 * transaction's tenant, the row's ACL and its source's ACL, as the version-1 policy (tenant_ok, acl_ok) says.
 *
 * Here the settings are read in sub-selects, which the planner runs once per query (InitPlans), where
 * tenant_ok and acl_ok read them again for every row: the policy's checks took two thirds of a scan of 11k
 * matching chunks (322 ms with them, 90 ms as InitPlans, 105 ms for a superuser without RLS; PostgreSQL 15
 * under load). The settings do not change within a statement, so the two read the same rows.
 */
export function readableRows(table: string): string {
  return `(tenant = (SELECT current_setting('ferret.tenant', true))
    OR (SELECT current_setting('ferret.all_tenants', true) = 'on'))
  AND (acl = '[]'::jsonb OR (SELECT '*' = ANY (ferret.scope_roles())) OR acl ?| (SELECT ferret.scope_roles()))
  AND NOT EXISTS (SELECT 1 FROM ferret.sources AS s WHERE s.tenant = ${table}.tenant AND s.name = ${table}.source
    AND NOT ferret.acl_ok(s.acl))`;
}

/** Schema step 3 -> 4 (with bm25_stats): chunks and documents take the policy above. */
export const READABLE_POLICY_MIGRATION = ["chunks", "documents"]
  .map((table) => `ALTER POLICY readable_rows ON ferret.${table} USING (${readableRows(table)});`)
  .join("\n");

/**
 * The policy of the tables bound by tenant alone: the transaction's tenant, or every tenant. As `readableRows`,
 * the settings are read in sub-selects, once per query, where tenant_ok read them for every row.
 */
export function tenantRows(): string {
  return `(tenant = (SELECT current_setting('ferret.tenant', true))
    OR (SELECT current_setting('ferret.all_tenants', true) = 'on'))`;
}

/** Schema step 4 -> 5: the tenant-bound tables take the policy above. */
export const TENANT_POLICY_MIGRATION = [
  "sources",
  "table_sources",
  "runs",
  "turns",
  "spend",
  "graph_entities",
  "graph_mentions",
]
  .map((table) => `ALTER POLICY tenant_rows ON ferret.${table} USING (${tenantRows()});`)
  .join("\n");
