import { parse } from "node-html-parser";
import { decodeUtf8 } from "../decode.js";
import { parseAcl, parseDate, titleFromPath } from "../fields.js";
import { htmlText } from "../html-text.js";
import type { Loader } from "../types.js";

const DATE_META = ["updated_at", "last-modified", "dcterms.modified", "article:modified_time", "date"];

/** HTML: title from `<title>` or the first `<h1>`; text from the body with headings kept as Markdown `#` lines. */
export const loadHtml: Loader = async ({ bytes, relPath }) => {
  const { text: raw, warnings } = decodeUtf8(bytes);
  const root = parse(raw, { comment: false });
  const meta = (name: string) =>
    root.querySelector(`meta[name="${name}"]`)?.getAttribute("content") ??
    root.querySelector(`meta[property="${name}"]`)?.getAttribute("content");
  const titleText = root.querySelector("title")?.text.replace(/\s+/g, " ").trim();
  const h1 = root.querySelector("h1")?.text.replace(/\s+/g, " ").trim();
  let updatedAt: string | undefined;
  for (const name of DATE_META) {
    updatedAt = parseDate(meta(name));
    if (updatedAt) break;
  }
  const acl = parseAcl(meta("acl"));
  // Last: htmlText removes the head, where the title and meta tags live.
  const text = htmlText(root);
  return {
    docs: [
      {
        id: relPath,
        title: titleText || h1 || titleFromPath(relPath),
        text,
        updatedAt,
        acl,
        metadata: {},
      },
    ],
    warnings,
  };
};
