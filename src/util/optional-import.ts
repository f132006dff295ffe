import { createRequire } from "node:module";
import { MissingDependencyError } from "../spec/errors.js";

/** The local model runtime: an optional peer dependency, loaded only when a `local:` model is chosen. */
export const TRANSFORMERS = "@huggingface/transformers";
/** The PDF reader: an optional peer dependency, loaded on the first PDF ingested. */
export const PDFJS = "pdfjs-dist";
/** The spreadsheet reader: an optional peer dependency, loaded on the first workbook ingested. */
export const EXCELJS = "exceljs";
/** The HNSW index of large SQLite stores: an optional peer dependency; without it vector search is exact. */
export const USEARCH = "usearch";

export type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
export type Usearch = typeof import("usearch");
export type ExcelJs = typeof import("exceljs");

/**
 * Loads an optional package through `importer`. When the package itself is absent this throws
 * `MissingDependencyError` naming it, the feature that needs it and the command that installs it; any other
 * failure (a broken native module, an error inside the package) is rethrown as is.
 */
export async function importOptional<T>(options: {
  name: string;
  feature: string;
  importer: () => Promise<T>;
  instead?: string;
}): Promise<T> {
  try {
    return await options.importer();
  } catch (error) {
    if (isMissing(error, options.name))
      throw new MissingDependencyError(options.name, options.feature, error, options.instead);
    throw error;
  }
}

/** Loads the local model runtime (see `importOptional`). */
export function importTransformers(feature: string): Promise<typeof import("@huggingface/transformers")> {
  return importOptional({ name: TRANSFORMERS, feature, importer: () => import("@huggingface/transformers") });
}

/** Loads pdfjs (legacy build, which runs in Node without a worker); missing, it names the package to install. */
export function importPdfJs(
  feature: string,
  importer: () => Promise<PdfJs> = () => import("pdfjs-dist/legacy/build/pdf.mjs"),
): Promise<PdfJs> {
  return importOptional({ name: PDFJS, feature, importer, instead: "or leave PDF files out of the source" });
}

/** Loads exceljs (its CommonJS default export); missing, it names the package to install. */
export function importExcelJs(
  feature: string,
  importer: () => Promise<ExcelJs> = () =>
    import("exceljs").then((m) => ((m as { default?: ExcelJs }).default ?? m) as ExcelJs),
): Promise<ExcelJs> {
  return importOptional({ name: EXCELJS, feature, importer, instead: "or leave .xlsx files out of the source" });
}

const requireHere = createRequire(import.meta.url);

/**
 * usearch, or undefined when it is not installed (a broken install still throws). It is required, not
 * imported: the store calls it synchronously, and its ESM build finds its binary from a stack trace, which
 * overflows under `node -e`.
 */
export function requireUsearch(require: (name: string) => unknown = requireHere): Usearch | undefined {
  try {
    return require(USEARCH) as Usearch;
  } catch (error) {
    if (isMissing(error, USEARCH)) return undefined;
    throw error;
  }
}

/** True when `error` says the package `name` itself cannot be found (not one of its own imports). */
export function isMissing(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  const message = error instanceof Error ? error.message : String(error);
  return message.includes(`'${name}'`) || message.includes(`"${name}"`);
}
