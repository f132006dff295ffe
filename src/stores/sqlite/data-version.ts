import type { StoreContext } from "./context.js";

/** Meta key of a tenant's data version (see `StoreV1.dataVersion`). */
function key(tenant: string): string {
  return `data_version:${tenant}`;
}

/**
 * The tenant's data version: 0 until its first change. One prepared read of the meta table's primary key; WAL
 * readers see another process's committed bump at their next statement, so every process agrees at once.
 */
export function dataVersion(ctx: StoreContext, tenant: string): number {
  return Number(ctx.getMeta(key(tenant)) ?? "0");
}

/**
 * Marks that what the tenant's principals can read changed. Call it inside the write's own transaction, so the
 * new version and the new data become visible together (a reader never caches new data under the old version
 * for long, nor old data under the new one).
 */
export function bumpDataVersion(ctx: StoreContext, tenant: string): number {
  return ctx.bump(key(tenant));
}
