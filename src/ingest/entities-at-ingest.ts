import type { ChunkEntity, DocumentWrite } from "../spec/document.js";
import { extractEntities } from "../text/entities.js";

/** Titles longer than this are sentences, not names: they become no `title` entity (their entities still count). */
export const MAX_TITLE_ENTITY_LENGTH = 80;

/** HTTP methods read as capitalised names ("POST /v2/refunds"): in nearly every API chunk, they link nothing. */
const NOT_ENTITIES = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);

/** The chunk's own mentions, as `extractEntities` finds them, less the noise above. */
export function chunkEntities(text: string): ChunkEntity[] {
  const out: ChunkEntity[] = [];
  for (const entity of extractEntities(text)) {
    if (!NOT_ENTITIES.has(entity.text)) out.push({ text: entity.text, type: entity.type });
  }
  return out;
}

/**
 * Entities a document's title defines: the title itself (type `title`) and the entities inside it. Every
 * chunk of the document carries them with role `defines`, linking the document's subject to what it says.
 */
export function titleEntities(title: string): ChunkEntity[] {
  const trimmed = title.trim();
  if (trimmed === "") return [];
  const out: ChunkEntity[] = [];
  if (trimmed.length <= MAX_TITLE_ENTITY_LENGTH) out.push({ text: trimmed, type: "title", role: "defines" });
  for (const entity of extractEntities(trimmed)) {
    if (entity.text.toLowerCase() === trimmed.toLowerCase()) continue;
    out.push({ text: entity.text, type: entity.type, role: "defines" });
  }
  return out;
}

/**
 * Fills `chunk.entities` for every chunk of a document write: the entities the chunk mentions, plus those its
 * document's title defines. Returns the same write, so it wraps where the write is built.
 */
export function attachEntities(write: DocumentWrite): DocumentWrite {
  const defined = titleEntities(write.doc.title);
  for (const chunk of write.chunks) {
    const mentioned = chunkEntities(chunk.text);
    chunk.entities = defined.length > 0 ? [...defined, ...mentioned] : mentioned;
  }
  return write;
}
