import { searchText } from "../text/tokenize.js";

/** Longest identifier text indexed for a document (ids and file names are short; hostile input may not be). */
const MAX_IDENTITY_CHARS = 200;

/**
 * The words a document is known by besides its content: the key of a row or JSON line (`shipments.csv#KF-000688`
 * gives `KF-000688`), else its file name with and without the extension and with `-`/`_` read as spaces
 * (`procedures/carrier-panel.md` gives `carrier-panel.md carrier panel`). A key of digits alone (a line
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
  return searchText(`${base} ${stem.replace(/[-_.]+/g, " ")}`);
}
