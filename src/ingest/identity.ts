import { searchText } from "../text/tokenize.js";

/** Longest identifier text indexed for a document (ids and file names are short; hostile input may not be). */
const MAX_IDENTITY_CHARS = 200;

/**
 * The words a document is known by besides its content: the key of a row or JSON line (`shipments.csv#KF-000688`
 * gives `KF-000688`), else the words of its file name without the extension, `-`/`_` read as spaces
 * (`hub_handbooks/ja/osaka-anzen-kisoku.md` gives `osaka anzen kisoku`). The extension names the format, not
 * the document, and is left out. A key of digits alone (a line
 * number, a dump's running index) names nothing a person would ask for and is left out, so it cannot match
 * the numbers of a question. Returned as index words (see `searchText`), ready to add to a chunk's.
 */
export function identityWords(docId: string): string {
  const hashAt = docId.indexOf("#");
  if (hashAt >= 0) {
    const key = docId.slice(hashAt + 1).slice(0, MAX_IDENTITY_CHARS);
    return /^\s*\d+\s*$/.test(key) ? "" : searchText(key);
  }
  const base = (docId.split("/").pop() ?? docId).slice(0, MAX_IDENTITY_CHARS);
  const dot = base.lastIndexOf(".");
  const stem = dot > 0 ? base.slice(0, dot) : base;
  return searchText(stem.replace(/[-_.]+/g, " "));
}

/**
 * The identity words a chunk's index text still lacks, given its document's title: nothing is added that the
 * chunk or the title already says (a CSV row whose text holds `ticket_id: T-1009`), so the index of documents
 * that name themselves is left as it was.
 */
export function missingIdentity(identity: string, searchTextOfChunk: string, title: string): string {
  if (identity === "") return "";
  const have = new Set(`${searchTextOfChunk} ${searchText(title)}`.split(" "));
  return identity
    .split(" ")
    .filter((w) => w !== "" && !have.has(w))
    .join(" ");
}
