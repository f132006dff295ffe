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
