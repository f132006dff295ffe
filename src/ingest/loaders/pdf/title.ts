/**
 * A PDF's title: its metadata title when that reads as one, else its file name with its first heading
 * ("AAPL 10-Q 2023-Q3 — Condensed Consolidated Statements of Operations"). The title is indexed with weight,
 * so the file name becomes searchable too.
 */
import { titleFromPath } from "../../fields.js";

const PLACEHOLDER =
  /^(?:untitled(?: document)?|document\d*|title|none|null|unknown|no title|pdf|powerpoint presentation|slide \d+|print|default)$/i;
const PRODUCER_NAME = /^(?:microsoft (?:word|excel|powerpoint)|adobe \w+|pages|keynote)\s+-\s+/i;
const FILE_NAME = /\.(?:pdf|docx?|xlsx?|pptx?|rtf|txt|html?|indd|qxp|tex|dvi|ps|odt)$/i;
const MAX_HEADING_CHARS = 120;

/**
 * True for metadata titles that say nothing about the content: empty, placeholders ("Untitled"), a
 * producer's "Microsoft Word - x.docx", a file name, or a single token with digits and no letters worth a
 * title (a filing number such as "0000320193-23-000106", "aapl-20230701").
 */
export function isJunkTitle(title: string | undefined, relPath: string): boolean {
  const text = title?.replace(/\s+/g, " ").trim() ?? "";
  if (text.length < 3 || !/\p{L}/u.test(text)) return true;
  if (PLACEHOLDER.test(text) || PRODUCER_NAME.test(text) || FILE_NAME.test(text)) return true;
  if (!/\s/.test(text) && /\d/.test(text)) return true;
  const stem = titleFromPath(relPath).toLowerCase();
  return text.toLowerCase() === stem;
}

/** The file name as words: "AAPL_10-Q_2023-Q3.pdf" is "AAPL 10-Q 2023-Q3". */
export function fileLabel(relPath: string): string {
  return titleFromPath(relPath).replace(/[_+]+/g, " ").replace(/\s+/g, " ").trim();
}

export function pdfTitle(options: { metadataTitle?: string; relPath: string; firstHeading?: string }): string {
  const { metadataTitle, relPath } = options;
  if (metadataTitle !== undefined && !isJunkTitle(metadataTitle, relPath))
    return metadataTitle.replace(/\s+/g, " ").trim();
  const label = fileLabel(relPath) || relPath;
  let heading = options.firstHeading?.replace(/\s+/g, " ").trim() ?? "";
  if (heading.length > MAX_HEADING_CHARS) heading = `${heading.slice(0, MAX_HEADING_CHARS).trimEnd()}…`;
  return heading ? `${label} — ${heading}` : label;
}
