import { searchText } from "../../text/tokenize.js";

/** Characters of a document's start that make its opening paragraph in the document index. */
export const OPENING_CHARS = 600;

export interface DocIndexEntry {
  title: string;
  headings: string;
  opening: string;
}

/** What the document index holds for a document, as index terms: title, distinct headings, opening text. */
export function docIndexEntry(doc: {
  title: string;
  text: string;
  sections: readonly (readonly string[])[];
}): DocIndexEntry {
  const headings = new Set<string>();
  for (const path of doc.sections) for (const heading of path) headings.add(heading);
  return {
    title: searchText(doc.title),
    headings: searchText([...headings].join("\n")),
    opening: searchText(opening(doc.text)),
  };
}

/** The first OPENING_CHARS characters, cut at a word boundary. */
function opening(text: string): string {
  if (text.length <= OPENING_CHARS) return text;
  const cut = text.lastIndexOf(" ", OPENING_CHARS);
  return text.slice(0, cut > OPENING_CHARS / 2 ? cut : OPENING_CHARS);
}
