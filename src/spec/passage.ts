/** A retrieved span of a document, as tools return it and citations point at it. */
export interface Passage {
  /** Chunk id: `<docId>::<ordinal>`; for a table row, the row id itself. */
  id: string;
  docId: string;
  source: string;
  title?: string;
  /** Section path joined with " > ". */
  section?: string;
  text: string;
  /** Relevance in [0, 1]; higher is better. Comparable within one retrieval mode. */
  score: number;
  updatedAt?: string;
  /** Character offsets of `text` in the document text. */
  start?: number;
  end?: number;
}

/**
 * What identifies a passage within a tenant: its source and id. Ids are unique per source only (two sources may
 * both hold `README.md::0`), so anything that merges, de-duplicates or looks up passages keys them by this.
 */
export function passageKey(passage: Pick<Passage, "source" | "id">): string {
  return `${passage.source}\u0000${passage.id}`;
}
