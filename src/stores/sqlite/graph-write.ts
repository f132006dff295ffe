import type { DocumentWrite } from "../../spec/document.js";
import { entityKey } from "../../spec/graph.js";
import type { StoreContext } from "./context.js";

const FIND_ENTITY = "SELECT id FROM graph_entities WHERE tenant = ? AND key = ?";
const INSERT_ENTITY = "INSERT INTO graph_entities (tenant, key, type, text) VALUES (?, ?, ?, ?)";
const CHUNK_ROWID = "SELECT rowid FROM chunks WHERE tenant = ? AND id = ?";
const UPSERT_MENTION = `INSERT INTO graph_mentions (chunk_rowid, entity_id, type, role, count) VALUES (?, ?, ?, ?, 1)
  ON CONFLICT (chunk_rowid, entity_id) DO UPDATE SET count = count + 1, role = max(role, excluded.role)`;

/** Longest entity text kept; longer ones (a sentence in quotes, a long title) are not useful nodes. */
export const MAX_ENTITY_LENGTH = 120;

/**
 * Writes the entity mentions carried on a batch's chunks. Runs inside the document write's transaction,
 * after the chunks are in (their old mentions went with the old chunks, through the trigger).
 */
export function writeMentions(ctx: StoreContext, batch: DocumentWrite[]): void {
  if (!batch.some(({ chunks }) => chunks.some((chunk) => chunk.entities && chunk.entities.length > 0))) return;
  const find = ctx.stmt(FIND_ENTITY).pluck();
  const insert = ctx.stmt(INSERT_ENTITY);
  const rowidOf = ctx.stmt(CHUNK_ROWID).pluck();
  const upsert = ctx.stmt(UPSERT_MENTION);
  const ids = new Map<string, number>();
  for (const { doc, chunks } of batch) {
    for (const chunk of chunks) {
      if (!chunk.entities || chunk.entities.length === 0) continue;
      const rowid = rowidOf.get(doc.tenant, chunk.id) as number | undefined;
      if (rowid === undefined) continue;
      for (const entity of chunk.entities) {
        const key = entityKey(entity.text);
        if (key.length === 0 || key.length > MAX_ENTITY_LENGTH) continue;
        const cacheKey = `${doc.tenant}\u0000${key}`;
        let id = ids.get(cacheKey);
        if (id === undefined) {
          id = find.get(doc.tenant, key) as number | undefined;
          if (id === undefined) id = Number(insert.run(doc.tenant, key, entity.type, entity.text).lastInsertRowid);
          ids.set(cacheKey, id);
        }
        upsert.run(rowid, id, entity.type, entity.role === "defines" ? 1 : 0);
      }
    }
  }
}
