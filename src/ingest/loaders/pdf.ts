import { InvalidInputError, SkipFileError } from "../../spec/errors.js";
import { titleFromPath } from "../fields.js";
import { DEFAULT_INGEST_LIMITS } from "../limits.js";
import type { Loader } from "../types.js";

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
let pdfjs: Promise<PdfJs> | undefined;

/** pdfjs is large: load it on the first PDF only. In Node it runs its worker code on the main thread. */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import("pdfjs-dist/legacy/build/pdf.mjs");
  return pdfjs;
}

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

function pageText(items: TextItemLike[]): string {
  let out = "";
  for (const item of items) {
    if (typeof item.str !== "string") continue;
    out += item.str;
    if (item.hasEOL) out += "\n";
    else if (item.str !== "" && !out.endsWith(" ")) out += " ";
  }
  return out
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * PDF through pdfjs (legacy build, no worker thread): text page by page, pages separated by a blank line;
 * `metadata.pageStarts[i]` is the offset where page i + 1 begins. Encrypted or corrupt files fail with a reason;
 * one with more than `maxPdfPages` pages is skipped unread.
 */
export const loadPdf: Loader = async ({ bytes, relPath, limits }) => {
  const maxPages = limits?.maxPdfPages ?? DEFAULT_INGEST_LIMITS.maxPdfPages;
  const { getDocument, VerbosityLevel } = await loadPdfJs();
  const task = getDocument({
    data: new Uint8Array(bytes),
    verbosity: VerbosityLevel.ERRORS,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    stopAtErrors: false,
  });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (cause) {
    await task.destroy().catch(() => undefined);
    const name = (cause as Error).name;
    const reason =
      name === "PasswordException"
        ? "encrypted PDF: a password is required to read it"
        : name === "InvalidPDFException"
          ? "not a readable PDF (corrupt or truncated)"
          : `PDF could not be opened: ${(cause as Error).message}`;
    throw new InvalidInputError(`${relPath}: ${reason}`, { file: relPath }, cause);
  }
  try {
    if (doc.numPages > maxPages)
      throw new SkipFileError(`PDF has ${doc.numPages} pages, over the ${maxPages}-page limit (maxPdfPages)`, {
        file: relPath,
        pages: doc.numPages,
        limit: maxPages,
      });
    const warnings: string[] = [];
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      try {
        const page = await doc.getPage(n);
        pages.push(pageText((await page.getTextContent()).items as TextItemLike[]));
        page.cleanup();
      } catch (cause) {
        warnings.push(`page ${n} could not be read: ${(cause as Error).message}`);
        pages.push("");
      }
    }
    const pageStarts: number[] = [];
    let text = "";
    for (const page of pages) {
      if (text !== "" && page !== "") text += "\n\n";
      pageStarts.push(text.length);
      text += page;
    }
    let title: string | undefined;
    try {
      const info = (await doc.getMetadata()).info as { Title?: unknown } | undefined;
      if (typeof info?.Title === "string" && info.Title.trim()) title = info.Title.trim();
    } catch {
      title = undefined;
    }
    return {
      docs: [
        {
          id: relPath,
          title: title ?? titleFromPath(relPath),
          text,
          acl: [],
          metadata: { pages: doc.numPages, pageStarts },
        },
      ],
      warnings,
    };
  } finally {
    await doc.destroy();
  }
};
