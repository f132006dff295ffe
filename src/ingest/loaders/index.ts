import { createLoaderRegistry, type LoaderRegistration, type LoaderRegistry } from "../loader-registry.js";
import { BRACE_EXTENSIONS, INDENT_EXTENSIONS, loadCode } from "./code.js";
import { loadCsv } from "./csv.js";
import { loadDocx } from "./docx.js";
import { loadHtml } from "./html.js";
import { loadJson } from "./json.js";
import { loadJsonl } from "./jsonl.js";
import { loadEml, loadMbox } from "./mail.js";
import { loadMarkdown } from "./md.js";
import { loadPdf } from "./pdf.js";
import { loadPptx } from "./pptx.js";
import { loadText } from "./txt.js";
import { loadXlsx } from "./xlsx.js";

/** ferret's own loaders: parse workers import this module, so each of them has these too. */
export const BUILTIN_LOADERS: readonly LoaderRegistration[] = [
  {
    name: "markdown",
    extensions: ["md", "markdown", "mdx"],
    mediaTypes: ["text/markdown"],
    load: loadMarkdown,
    text: true,
  },
  { name: "text", extensions: ["txt", "text", "rst"], mediaTypes: ["text/plain"], load: loadText, text: true },
  {
    name: "html",
    extensions: ["html", "htm"],
    mediaTypes: ["text/html", "application/xhtml+xml"],
    load: loadHtml,
    text: true,
  },
  { name: "pdf", extensions: ["pdf"], mediaTypes: ["application/pdf"], load: loadPdf, text: false },
  {
    name: "docx",
    extensions: ["docx"],
    mediaTypes: ["application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
    load: loadDocx,
    text: false,
  },
  {
    name: "xlsx",
    extensions: ["xlsx"],
    mediaTypes: ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
    load: loadXlsx,
    text: false,
  },
  {
    name: "pptx",
    extensions: ["pptx"],
    mediaTypes: ["application/vnd.openxmlformats-officedocument.presentationml.presentation"],
    load: loadPptx,
    text: false,
  },
  { name: "code", extensions: [...BRACE_EXTENSIONS, ...INDENT_EXTENSIONS], load: loadCode, text: true },
  { name: "eml", extensions: ["eml"], mediaTypes: ["message/rfc822"], load: loadEml, text: false },
  { name: "mbox", extensions: ["mbox"], mediaTypes: ["application/mbox"], load: loadMbox, text: false },
  { name: "csv", extensions: ["csv"], mediaTypes: ["text/csv"], load: loadCsv, text: true },
  { name: "json", extensions: ["json"], mediaTypes: ["application/json"], load: loadJson, text: true },
  {
    name: "jsonl",
    extensions: ["jsonl", "ndjson"],
    mediaTypes: ["application/jsonl", "application/x-ndjson"],
    load: loadJsonl,
    text: true,
  },
].map((loader) => ({ ...loader, builtin: true }));

/** The process-wide registry: the built-in loaders and whatever `registerLoader` added. */
export const defaultLoaders: LoaderRegistry = createLoaderRegistry(BUILTIN_LOADERS);

/**
 * Adds a loader to the process-wide registry, for every ingest that is not given its own (`createFerret({
 * loaders })` extends this one). Files it loads are parsed in this process, not in a parse worker.
 */
export function registerLoader(loader: LoaderRegistration): void {
  defaultLoaders.register({ ...loader, builtin: false });
}

/** The loader for a file name's extension in the process-wide registry, or undefined. */
export function loaderFor(fileName: string): LoaderRegistration | undefined {
  return defaultLoaders.forPath(fileName);
}

/** Extensions of the built-in loaders. */
export const SUPPORTED_EXTENSIONS = createLoaderRegistry(BUILTIN_LOADERS).extensions();

export {
  loadCode,
  loadCsv,
  loadDocx,
  loadHtml,
  loadJson,
  loadJsonl,
  loadMarkdown,
  loadPdf,
  loadPptx,
  loadText,
  loadXlsx,
};
