import type { EmbedderV1 } from "../spec/embedder.js";
import { EmbedderMismatchError, UpstreamError } from "../spec/errors.js";
import type { StoreV1 } from "../spec/store.js";

/**
 * Makes sure a tenant's vectors and the embedder agree: same embedder id and same dimensions. When the store has
 * no embedder recorded yet, records this one (asking the embedder one short text if its dimensions are not known
 * yet). Throws `EmbedderMismatchError` with a fix-it message otherwise. Returns the info in force.
 */
export async function checkEmbedderCompatible(
  store: Pick<StoreV1, "embedderInfo" | "setEmbedderInfo">,
  tenant: string,
  embedder: EmbedderV1,
): Promise<{ id: string; dimensions: number }> {
  const recorded = await store.embedderInfo(tenant);
  const known = embedder.dimensions();
  if (recorded) {
    const sameId = recorded.id === embedder.id;
    const sameDims = known === undefined || known === recorded.dimensions;
    if (sameId && sameDims) return recorded;
    const ours = known === undefined ? embedder.id : `${embedder.id} (${known} dimensions)`;
    throw new EmbedderMismatchError(
      `the store's vectors for tenant "${tenant}" were made by ${recorded.id} (${recorded.dimensions} dimensions), ` +
        `but the embedder now is ${ours}; vectors of different embedders cannot be compared. ` +
        `Use the same embedder (${recorded.id}), or ingest into a new --db to switch to ${embedder.id}.`,
      { tenant, stored: recorded, embedder: { id: embedder.id, dimensions: known } },
    );
  }
  const dimensions = known ?? (await embedder.embed(["dimension probe"]))[0]?.length;
  if (!dimensions) {
    throw new UpstreamError(`embedder ${embedder.id} returned no vector, so its dimensions are unknown`, {
      context: { tenant, embedder: embedder.id },
    });
  }
  const info = { id: embedder.id, dimensions };
  await store.setEmbedderInfo(tenant, info);
  return info;
}
