import { mismatch } from "../embedder-dims.js";
import { type StoreContext, vectorBlob } from "./context.js";

/** The vec0 table holding every vector of one dimension (all tenants, tenant as partition key). */
export function vectorTable(dims: number): string {
  if (!Number.isInteger(dims) || dims <= 0) throw new RangeError(`invalid vector dimension ${dims}`);
  return `vec_${dims}`;
}

export function vectorTableExists(ctx: StoreContext, dims: number): boolean {
  return ctx.stmt("SELECT 1 FROM sqlite_master WHERE name = ?").get(vectorTable(dims)) !== undefined;
}

export function ensureVectorTable(ctx: StoreContext, dims: number): void {
  if (vectorTableExists(ctx, dims)) return;
  ctx.db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${vectorTable(dims)} USING vec0 (embedding float[${dims}] distance_metric=cosine, tenant text partition key)`,
  );
}

/** Meta key of the counter that changes whenever vectors of this dimension are added or removed. */
export function vectorVersionKey(dims: number): string {
  return `vector_version:${dims}`;
}

/** Vector additions and removals of one write, per dimension, to keep an HNSW index in step. */
export class VectorChanges {
  readonly byDims = new Map<number, { removed: number[]; added: { rowid: number; vector: Float32Array }[] }>();

  #entry(dims: number) {
    let entry = this.byDims.get(dims);
    if (!entry) {
      entry = { removed: [], added: [] };
      this.byDims.set(dims, entry);
    }
    return entry;
  }

  removed(dims: number, rowid: number): void {
    this.#entry(dims).removed.push(rowid);
  }

  added(dims: number, rowid: number, vector: Float32Array): void {
    this.#entry(dims).added.push({ rowid, vector });
  }
}

export function insertVector(
  ctx: StoreContext,
  options: { dims: number; rowid: number; tenant: string; vector: Float32Array },
) {
  ctx
    .stmt(`INSERT INTO ${vectorTable(options.dims)} (rowid, embedding, tenant) VALUES (?, ?, ?)`)
    .run(BigInt(options.rowid), vectorBlob(options.vector), options.tenant);
}

export function deleteVector(ctx: StoreContext, dims: number, rowid: number): void {
  ctx.stmt(`DELETE FROM ${vectorTable(dims)} WHERE rowid = ?`).run(BigInt(rowid));
}

/** Dimension of the vectors a tenant already holds, if any. */
export function storedDims(ctx: StoreContext, tenant: string): number | undefined {
  const row = ctx.stmt("SELECT dims FROM chunks WHERE tenant = ? AND dims IS NOT NULL LIMIT 1").get(tenant) as
    | { dims: number }
    | undefined;
  return row?.dims;
}

export function vectorCount(ctx: StoreContext, tenant: string, dims: number): number {
  const row = ctx.stmt("SELECT count(*) AS n FROM chunks WHERE tenant = ? AND dims = ?").get(tenant, dims) as {
    n: number;
  };
  return row.n;
}

export interface EmbedderInfo {
  id: string;
  dimensions: number;
}

export function getEmbedderInfo(ctx: StoreContext, tenant: string): EmbedderInfo | undefined {
  const value = ctx.getMeta(`embedder:${tenant}`);
  return value === undefined ? undefined : (JSON.parse(value) as EmbedderInfo);
}

/** Records the embedder; refuses one that disagrees with vectors the tenant already holds. */
export function setEmbedderInfo(ctx: StoreContext, tenant: string, info: EmbedderInfo): void {
  const dims = storedDims(ctx, tenant);
  const previous = getEmbedderInfo(ctx, tenant);
  if (dims !== undefined && (dims !== info.dimensions || (previous && previous.id !== info.id))) {
    throw mismatch({ tenant, expected: previous ?? { id: "unknown", dimensions: dims }, got: info });
  }
  ctx.setMeta(`embedder:${tenant}`, JSON.stringify({ id: info.id, dimensions: info.dimensions }));
}

/** The dimension new vectors of a tenant must have: that of stored vectors, else of the recorded embedder. */
export function expectedDims(ctx: StoreContext, tenant: string): number | undefined {
  return storedDims(ctx, tenant) ?? getEmbedderInfo(ctx, tenant)?.dimensions;
}

export { mismatch };
