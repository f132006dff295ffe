import mammoth from "mammoth";
import { InvalidInputError } from "../../spec/errors.js";
import { titleFromPath } from "../fields.js";
import { htmlText, parseHtmlDocument } from "../html-text.js";
import { DEFAULT_INGEST_LIMITS } from "../limits.js";
import type { Loader } from "../types.js";
import { checkZip } from "../zip-guard.js";

/** Images are not text: mammoth is told not to read them (it would inline each as base64). */
const noImages = mammoth.images.imgElement(async () => ({ src: "" }));

/**
 * Word documents through mammoth's HTML conversion, so headings survive as `#` lines for the chunker.
 * The zip is checked against the entry and size caps before mammoth inflates anything.
 * The title is the first heading, else the file name.
 */
export const loadDocx: Loader = async ({ bytes, relPath, limits = DEFAULT_INGEST_LIMITS }) => {
  await checkZip({ bytes, relPath, kind: ".docx file", limits });
  let html: string;
  let messages: { type: string; message: string }[];
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      { convertImage: noImages },
    );
    html = result.value;
    messages = result.messages;
  } catch (cause) {
    throw new InvalidInputError(
      `${relPath}: not a readable .docx file (${(cause as Error).message})`,
      { file: relPath },
      cause,
    );
  }
  const document = parseHtmlDocument(html);
  const heading = document.querySelector("h1, h2, h3")?.textContent?.replace(/\s+/g, " ").trim();
  const body = document.body ?? document.documentElement;
  const warnings = messages.filter((m) => m.type === "error").map((m) => m.message);
  return {
    docs: [{ id: relPath, title: heading || titleFromPath(relPath), text: htmlText(body), acl: [], metadata: {} }],
    warnings,
  };
};
