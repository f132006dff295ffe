/** Document and row ids as the set names them: forward slashes, no leading `./`. */
export function normaliseId(id: string): string {
  return id.replace(/\\/g, "/").replace(/^(\.\/)+/, "");
}

/**
 * The unit a gold id names for a retrieved item: its document, except for table rows, whose id is
 * `<path>#<key>` even when the store files them under the table's document.
 */
export function unitId(item: { id: string; docId: string }): string {
  const id = normaliseId(item.id);
  const docId = normaliseId(item.docId);
  if (id.startsWith(`${docId}#`)) return id;
  return docId;
}

/** True when a retrieved or cited item is the gold document or row `gold`. */
export function matchesGold(item: { id: string; docId: string }, gold: string): boolean {
  const g = normaliseId(gold);
  return unitId(item) === g || normaliseId(item.docId) === g || normaliseId(item.id) === g;
}
