import mammoth from "mammoth";
import { parse } from "node-html-parser";
import { InvalidInputError } from "../../spec/errors.js";
import { titleFromPath } from "../fields.js";
import { htmlText } from "../html-text.js";
import type { Loader } from "../types.js";

/**
 * Word documents through mammoth's HTML conversion, so headings survive as `#` lines for the chunker.
 * The title is the first heading, else the file name.
 */
export const loadDocx: Loader = async ({ bytes, relPath }) => {
  let html: string;
  let messages: { type: string; message: string }[];
  try {
    const result = await mammoth.convertToHtml({
      buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    });
    html = result.value;
    messages = result.messages;
  } catch (cause) {
    throw new InvalidInputError(
      `${relPath}: not a readable .docx file (${(cause as Error).message})`,
      { file: relPath },
      cause,
    );
  }
  const root = parse(html);
  const heading = root.querySelector("h1, h2, h3")?.text.replace(/\s+/g, " ").trim();
  const warnings = messages.filter((m) => m.type === "error").map((m) => m.message);
  return {
    docs: [{ id: relPath, title: heading || titleFromPath(relPath), text: htmlText(root), acl: [], metadata: {} }],
    warnings,
  };
};
