import type { Principal } from "../spec/principal.js";
import { isOwner } from "./principal.js";

/** What a chunk read is narrowed to; each store turns it into its own WHERE fragment (tenant and ACLs always). */
export interface ChunkFilter {
  principal: Principal;
  sources?: string[];
  docId?: string;
  docIds?: string[];
  since?: string;
}

/** True when the filter narrows beyond the tenant: an ACL (not the owner), sources, documents or a date. */
export function narrowsChunks(filter: ChunkFilter): boolean {
  return (
    !isOwner(filter.principal) ||
    (filter.sources !== undefined && filter.sources.length > 0) ||
    filter.docId !== undefined ||
    filter.docIds !== undefined ||
    filter.since !== undefined
  );
}
