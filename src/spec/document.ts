/** One ingested document, as loaders produce it and the store keeps it. */
export interface DocumentRecord {
  /** Stable id: the path relative to the ingest root, or `<path>#<id>` for rows and JSONL lines. */
  id: string;
  source: string;
  tenant: string;
  title: string;
  /** ISO date (YYYY-MM-DD or full timestamp), when known. */
  updatedAt?: string;
  /** Document-level ACL (front matter `acl`); empty means the source's ACL alone applies. */
  acl: string[];
  /** sha256 hex of the normalised text, title, updatedAt, acl and metadata: unchanged hash means skip. */
  contentHash: string;
  text: string;
  metadata: Record<string, unknown>;
}

/** A document's fields without its text: what a caller needing only its title, ACL or metadata reads. */
export type DocumentHeader = Omit<DocumentRecord, "text">;

/** A searchable piece of a document. */
export interface ChunkRecord {
  /** `<docId>::<ordinal>` */
  id: string;
  docId: string;
  ordinal: number;
  text: string;
  /** Heading path, outermost first. */
  section: string[];
  /** Character offsets into the document text: `doc.text.slice(start, end) === text`. */
  start: number;
  end: number;
  tokens: number;
  /** Words for the keyword index, already segmented (CJK split into words) and space-joined. */
  searchText: string;
  embedding?: Float32Array;
  /** Entity mentions for the entity graph (see graph.ts); stores without a graph ignore them. */
  entities?: ChunkEntity[];
}

/** One entity mentioned in a chunk: `type` is a `GraphEntityType`; `role` `defines` when it comes from the title. */
export interface ChunkEntity {
  text: string;
  type: string;
  role?: "mention" | "defines";
}

export interface DocumentWrite {
  doc: DocumentRecord;
  chunks: ChunkRecord[];
}
