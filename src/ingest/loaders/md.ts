import { decodeText } from "../decode.js";
import { firstHeading, parseAcl, parseDate, titleFromPath } from "../fields.js";
import { splitFrontMatter } from "../front-matter.js";
import { DEFAULT_INGEST_LIMITS } from "../limits.js";
import type { Loader } from "../types.js";

const RESERVED = new Set(["title", "updated_at", "acl"]);

/**
 * Markdown: front matter (YAML, TOML or JSON, read as data only) gives `title`, `updated_at` and `acl`
 * (a list or a comma-separated string); other keys become metadata. The title falls back to the first
 * `#` heading, then the file name. Any other front-matter engine fails the file, naming the engine.
 */
export const loadMarkdown: Loader = async ({ bytes, relPath, limits = DEFAULT_INGEST_LIMITS }) => {
  const { text: raw, warnings } = decodeText({ bytes });
  const front = splitFrontMatter({ text: raw, relPath, limits });
  warnings.push(...front.warnings);
  const { data } = front;
  const text = front.body.replace(/^\s*\n/, "").trimEnd();
  const title = (typeof data.title === "string" && data.title.trim()) || firstHeading(text) || titleFromPath(relPath);
  const metadata = Object.fromEntries(Object.entries(data).filter(([key]) => !RESERVED.has(key)));
  const updatedAt = parseDate(data.updated_at);
  if (data.updated_at !== undefined && updatedAt === undefined) {
    warnings.push(`updated_at ${JSON.stringify(data.updated_at)} is not a date; ignored`);
  }
  return {
    docs: [{ id: relPath, title, text, updatedAt, acl: parseAcl(data.acl), metadata }],
    warnings,
  };
};
