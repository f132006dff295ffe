import { InvalidInputError, LimitExceededError } from "../../spec/errors.js";
import { importPdfJs, type PdfJs } from "../../util/optional-import.js";
import { DEFAULT_INGEST_LIMITS } from "../limits.js";
import type { Loader } from "../types.js";
import { layoutDocument, type PdfPage } from "./pdf/layout.js";
import { groupLines, type Line, pageLines, type RawTextItem, toItems } from "./pdf/lines.js";
import { type OutlineEntry, type OutlineSource, outlineEntries } from "./pdf/outline.js";
import { pdfTitle } from "./pdf/title.js";

let pdfjs: Promise<PdfJs> | undefined;

/**
 * pdfjs is large and an optional peer dependency: load it on the first PDF only (missing, the error names
 * the package to install). In Node it runs its worker code on the main thread.
 */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= importPdfJs("ingesting PDF files").catch((error: unknown) => {
    pdfjs = undefined;
    throw error;
  });
  return pdfjs;
}

/** A page's lines in reading order: upright text, then any text turned at a right angle (a sideways table). */
function linesOf(content: { items: unknown[]; styles: unknown }): { lines: Line[]; loose: string[] } {
  const styles = (content.styles ?? {}) as Parameters<typeof toItems>[1];
  const { upright, turned, loose } = toItems(content.items as RawTextItem[], styles);
  const lines = pageLines(upright);
  for (const group of turned) for (const line of groupLines(group)) lines.push({ ...line, turned: true });
  return { lines, loose };
}

async function metadataTitle(doc: { getMetadata(): Promise<{ info: unknown }> }): Promise<string | undefined> {
  try {
    const info = (await doc.getMetadata()).info as { Title?: unknown } | undefined;
    return typeof info?.Title === "string" ? info.Title : undefined;
  } catch {
    return undefined;
  }
}

/**
 * PDF through pdfjs (legacy build, no worker thread), laid out from the text items' positions: running
 * headers, footers and glyph debris dropped, tables as `label | header: value` rows, sections from the
 * outline or the headings as `#` lines, pages separated by a blank line; `metadata.pageStarts[i]` is the
 * offset where page i + 1 begins. A junk metadata title gives way to the file name and first heading.
 * Encrypted or corrupt files fail with a reason; one with more than `maxPdfPages` pages is skipped unread.
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
      throw new LimitExceededError(`PDF has ${doc.numPages} pages, over the ${maxPages}-page limit (maxPdfPages)`, {
        file: relPath,
        limit: "maxPdfPages",
        cap: maxPages,
        value: doc.numPages,
      });
    const warnings: string[] = [];
    const pages: PdfPage[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      try {
        const page = await doc.getPage(n);
        const [, bottom = 0, , top = 792] = page.view;
        const { lines, loose } = linesOf(await page.getTextContent());
        pages.push({ lines, loose, bottom, top });
        page.cleanup();
      } catch (cause) {
        warnings.push(`page ${n} could not be read: ${(cause as Error).message}`);
        pages.push({ lines: [], loose: [], bottom: 0, top: 792 });
      }
    }
    let outline: OutlineEntry[] = [];
    try {
      outline = await outlineEntries(doc as unknown as OutlineSource, doc.numPages);
    } catch (cause) {
      warnings.push(`outline could not be read: ${(cause as Error).message}`);
    }
    const layout = layoutDocument({ pages, outline });
    const title = pdfTitle({ metadataTitle: await metadataTitle(doc), relPath, firstHeading: layout.firstHeading });
    return {
      docs: [
        {
          id: relPath,
          title,
          text: layout.text,
          acl: [],
          metadata: { pages: doc.numPages, pageStarts: layout.pageStarts },
        },
      ],
      warnings,
    };
  } finally {
    await doc.destroy();
  }
};
