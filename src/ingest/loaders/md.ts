import matter from "gray-matter";
import { InvalidInputError } from "../../spec/errors.js";
import { decodeUtf8 } from "../decode.js";
import { firstHeading, parseAcl, parseDate, plain, titleFromPath } from "../fields.js";
import type { Loader } from "../types.js";

const RESERVED = new Set(["title", "updated_at", "acl"]);

/**
 * Markdown: YAML front matter gives `title`, `updated_at` and `acl` (a list or a comma-separated string);
 * other front-matter keys become metadata. The title falls back to the first `#` heading, then the file name.
 */
export const loadMarkdown: Loader = async ({ bytes, relPath }) => {
  const { text: raw, warnings } = decodeUtf8(bytes);
  let parsed: matter.GrayMatterFile<string>;
  try {
    // Passing options (even empty) keeps gray-matter from caching every file it has seen.
    parsed = matter(raw, {});
  } catch (cause) {
    const line = (cause as { mark?: { line?: number } }).mark?.line;
    throw new InvalidInputError(
      `${relPath}: invalid YAML front matter${line === undefined ? "" : ` at line ${line + 2}`}: ${(cause as Error).message.split("\n")[0]}`,
      { file: relPath, line: line === undefined ? undefined : line + 2, field: "front matter" },
      cause,
    );
  }
  const data = (parsed.data ?? {}) as Record<string, unknown>;
  const text = parsed.content.replace(/^\s*\n/, "").trimEnd();
  const title = (typeof data.title === "string" && data.title.trim()) || firstHeading(text) || titleFromPath(relPath);
  const metadata: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) if (!RESERVED.has(key)) metadata[key] = plain(value);
  const updatedAt = parseDate(data.updated_at);
  if (data.updated_at !== undefined && updatedAt === undefined) {
    warnings.push(`updated_at ${JSON.stringify(plain(data.updated_at))} is not a date; ignored`);
  }
  return {
    docs: [{ id: relPath, title, text, updatedAt, acl: parseAcl(data.acl), metadata }],
    warnings,
  };
};
