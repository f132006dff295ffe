import type { DocumentWrite } from "../../spec/document.js";
import { entityKey } from "../../spec/graph.js";
import type { StoreContext } from "./context.js";

const FIND_ENTITY = "SELECT id, type FROM graph_entities WHERE tenant = ? AND key = ?";
const RETYPE_ENTITY = "UPDATE graph_entities SET type = ? WHERE id = ?";
const INSERT_ENTITY = "INSERT INTO graph_entities (tenant, key, type, text) VALUES (?, ?, ?, ?)";
const CHUNK_ROWID = "SELECT rowid FROM chunks WHERE tenant = ? AND id = ? AND source = ?";
/** A second mention in the chunk adds to the count; a text type wins over `title` (the role keeps `defines`). */
const UPSERT_MENTION = `INSERT INTO graph_mentions (chunk_rowid, entity_id, type, role, count) VALUES (?, ?, ?, ?, 1)
  ON CONFLICT (chunk_rowid, entity_id) DO UPDATE SET count = count + 1, role = max(role, excluded.role),
    type = CASE WHEN type = 'title' THEN excluded.type ELSE type END`;

/** Longest entity text kept; longer ones (a sentence in quotes, a long title) are not useful nodes. */
export const MAX_ENTITY_LENGTH = 120;

/**
 * Writes the entity mentions carried on a batch's chunks. Runs inside the document write's transaction,
 * after the chunks are in (their old mentions went with the old chunks, through the trigger).
 */
export function writeMentions(ctx: StoreContext, batch: DocumentWrite[]): void {
  if (!batch.some(({ chunks }) => chunks.some((chunk) => chunk.entities && chunk.entities.length > 0))) return;
  const find = ctx.stmt(FIND_ENTITY);
  const retype = ctx.stmt(RETYPE_ENTITY);
  const insert = ctx.stmt(INSERT_ENTITY);
  const rowidOf = ctx.stmt(CHUNK_ROWID).pluck();
  const upsert = ctx.stmt(UPSERT_MENTION);
  const known = new Map<string, { id: number; type: string }>();
  for (const { doc, chunks } of batch) {
    for (const chunk of chunks) {
      if (!chunk.entities || chunk.entities.length === 0) continue;
      const rowid = rowidOf.get(doc.tenant, chunk.id, doc.source) as number | undefined;
      if (rowid === undefined) continue;
      for (const mention of chunk.entities) {
        const key = entityKey(mention.text);
        if (key.length === 0 || key.length > MAX_ENTITY_LENGTH) continue;
        const cacheKey = `${doc.tenant}\u0000${key}`;
        let entity = known.get(cacheKey);
        if (entity === undefined) {
          entity = find.get(doc.tenant, key) as { id: number; type: string } | undefined;
          if (entity === undefined) {
            const id = Number(insert.run(doc.tenant, key, mention.type, mention.text).lastInsertRowid);
            entity = { id, type: mention.type };
          }
          known.set(cacheKey, entity);
        }
        // An entity first seen as a title takes the type its text has where it is mentioned (code, name, ...).
        if (entity.type === "title" && mention.type !== "title") {
          retype.run(mention.type, entity.id);
          entity.type = mention.type;
        }
        upsert.run(rowid, entity.id, mention.type, mention.role === "defines" ? 1 : 0);
      }
    }
  }
}
