import { LimitExceededError } from "../../spec/errors.js";
import { decodeText } from "../decode.js";
import { parseAcl, parseDate, titleFromPath } from "../fields.js";
import { declaredHtmlCharset } from "../html-charset.js";
import { extractHtmlContent } from "../html-content.js";
import { parseHtmlDocument } from "../html-text.js";
import { DEFAULT_INGEST_LIMITS } from "../limits.js";
import type { Loader } from "../types.js";

/** Start tags in markup: a cheap upper bound on the elements a parser would build, counted before parsing. */
function startTags(html: string): number {
  let count = 0;
  for (let i = html.indexOf("<"); i >= 0; i = html.indexOf("<", i + 1)) {
    const next = html.charCodeAt(i + 1);
    if ((next >= 65 && next <= 90) || (next >= 97 && next <= 122)) count++;
  }
  return count;
}

const DATE_META = ["updated_at", "last-modified", "dcterms.modified", "article:modified_time", "date"];

/**
 * HTML: decoded by its declared charset (else UTF-8, else detected); title from `<title>` or the first
 * `<h1>`; text from the page's content without navigation, header, footer, sidebars and cookie
 * banners, with headings kept as Markdown `#` lines and table rows as `a | b` lines.
 */
export const loadHtml: Loader = async ({ bytes, relPath, limits = DEFAULT_INGEST_LIMITS }) => {
  const { text: raw, warnings } = decodeText({ bytes, declaredCharset: declaredHtmlCharset(bytes) });
  const elements = startTags(raw);
  if (elements > limits.maxHtmlElements) {
    throw new LimitExceededError(
      `${relPath}: HTML has about ${elements} elements, over the cap of ${limits.maxHtmlElements} (maxHtmlElements)`,
      { file: relPath, limit: "maxHtmlElements", cap: limits.maxHtmlElements, value: elements },
    );
  }
  const document = parseHtmlDocument(raw);
  const meta = (name: string) =>
    document.querySelector(`meta[name="${name}"]`)?.getAttribute("content") ??
    document.querySelector(`meta[property="${name}"]`)?.getAttribute("content") ??
    undefined;
  const titleText = document.querySelector("title")?.textContent?.replace(/\s+/g, " ").trim();
  const h1 = document.querySelector("h1")?.textContent?.replace(/\s+/g, " ").trim();
  let updatedAt: string | undefined;
  for (const name of DATE_META) {
    updatedAt = parseDate(meta(name));
    if (updatedAt) break;
  }
  const acl = parseAcl(meta("acl"));
  // Last: extraction modifies the document.
  const { text } = extractHtmlContent({ document, maxScoredElements: limits.maxHtmlScoredElements });
  return {
    docs: [{ id: relPath, title: titleText || h1 || titleFromPath(relPath), text, updatedAt, acl, metadata: {} }],
    warnings,
  };
};
