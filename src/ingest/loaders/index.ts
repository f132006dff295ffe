import type { Loader } from "../types.js";
import { loadCsv } from "./csv.js";
import { loadDocx } from "./docx.js";
import { loadHtml } from "./html.js";
import { loadJsonl } from "./jsonl.js";
import { loadMarkdown } from "./md.js";
import { loadPdf } from "./pdf.js";
import { loadText } from "./txt.js";

export interface LoaderEntry {
  load: Loader;
  /** Text formats are sniffed for binary content before loading; PDF and DOCX are binary by nature. */
  text: boolean;
}

const LOADERS: Record<string, LoaderEntry> = {
  md: { load: loadMarkdown, text: true },
  markdown: { load: loadMarkdown, text: true },
  mdx: { load: loadMarkdown, text: true },
  txt: { load: loadText, text: true },
  text: { load: loadText, text: true },
  rst: { load: loadText, text: true },
  html: { load: loadHtml, text: true },
  htm: { load: loadHtml, text: true },
  pdf: { load: loadPdf, text: false },
  docx: { load: loadDocx, text: false },
  csv: { load: loadCsv, text: true },
  jsonl: { load: loadJsonl, text: true },
  ndjson: { load: loadJsonl, text: true },
};

/** The loader for a file name's extension (case-insensitive), or undefined when the type is not supported. */
export function loaderFor(fileName: string): LoaderEntry | undefined {
  const dot = fileName.lastIndexOf(".");
  if (dot < 0) return undefined;
  return LOADERS[fileName.slice(dot + 1).toLowerCase()];
}

export const SUPPORTED_EXTENSIONS = Object.keys(LOADERS);

export { loadCsv, loadDocx, loadHtml, loadJsonl, loadMarkdown, loadPdf, loadText };
