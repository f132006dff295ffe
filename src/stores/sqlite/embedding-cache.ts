import { blobVector, type StoreContext, vectorBlob } from "./context.js";

/** Vectors already computed by `model` for these content hashes. */
export function cachedEmbeddings(ctx: StoreContext, model: string, hashes: string[]): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  if (hashes.length === 0) return out;
  const rows = ctx
    .stmt("SELECT hash, vector FROM embedding_cache WHERE model = ? AND hash IN (SELECT value FROM json_each(?))")
    .all(model, JSON.stringify(hashes)) as { hash: string; vector: Buffer }[];
  for (const row of rows) out.set(row.hash, blobVector(row.vector));
  return out;
}

export function cacheEmbeddings(ctx: StoreContext, model: string, entries: Map<string, Float32Array>): void {
  ctx.assertWritable("cache embeddings");
  const insert = ctx.stmt("INSERT OR REPLACE INTO embedding_cache (model, hash, vector) VALUES (?, ?, ?)");
  ctx.db.transaction(() => {
    for (const [hash, vector] of entries) insert.run(model, hash, vectorBlob(vector));
  })();
}
