import { describe, expect, it } from "vitest";
import { MissingDependencyError } from "../spec/errors.js";
import { importExcelJs, importPdfJs, isMissing, type PdfJs, requireUsearch } from "./optional-import.js";

/** The error node raises for a package that is not installed (ESM import or CommonJS require). */
function notFound(name: string, code: "ERR_MODULE_NOT_FOUND" | "MODULE_NOT_FOUND"): Error {
  const message =
    code === "MODULE_NOT_FOUND"
      ? `Cannot find module '${name}'`
      : `Cannot find package '${name}' imported from /app/x.js`;
  return Object.assign(new Error(message), { code });
}

describe("isMissing", () => {
  it("recognises a package that is not installed, by its own name only", async () => {
    const error = await import("ferret-no-such-package-xyz" as string).catch((e: unknown) => e);
    expect(isMissing(error, "ferret-no-such-package-xyz")).toBe(true);
    expect(isMissing(error, "ferret-no-such")).toBe(false);
    expect(isMissing(new Error("Cannot find package 'ferret-no-such-package-xyz'"), "ferret-no-such-package-xyz")).toBe(
      false,
    );
  });
});

describe("optional packages", () => {
  it("a PDF without pdfjs-dist names the package and the command that installs it", async () => {
    const error = await importPdfJs("ingesting PDF files", () =>
      Promise.reject(notFound("pdfjs-dist", "ERR_MODULE_NOT_FOUND")),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingDependencyError);
    expect((error as MissingDependencyError).packageName).toBe("pdfjs-dist");
    expect((error as Error).message).toBe(
      "ingesting PDF files needs the optional package pdfjs-dist, which is not installed: run `npm install pdfjs-dist` (or leave PDF files out of the source).",
    );
  });

  it("a workbook without exceljs names the package and the command that installs it", async () => {
    const error = await importExcelJs("ingesting .xlsx files", () =>
      Promise.reject(notFound("exceljs", "ERR_MODULE_NOT_FOUND")),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingDependencyError);
    expect((error as MissingDependencyError).packageName).toBe("exceljs");
    expect((error as Error).message).toBe(
      "ingesting .xlsx files needs the optional package exceljs, which is not installed: run `npm install exceljs` (or leave .xlsx files out of the source).",
    );
  });

  it("a broken pdfjs-dist is reported as it is, not as missing", async () => {
    const broken = notFound("@napi-rs/canvas", "ERR_MODULE_NOT_FOUND");
    await expect(importPdfJs("ingesting PDF files", () => Promise.reject(broken))).rejects.toBe(broken);
  });

  it("loads pdfjs-dist when it is installed", async () => {
    const pdfjs = await importPdfJs("ingesting PDF files");
    expect(typeof (pdfjs as PdfJs).getDocument).toBe("function");
  });

  it("usearch: undefined when absent, the module when present, a broken install rethrown", () => {
    expect(
      requireUsearch(() => {
        throw notFound("usearch", "MODULE_NOT_FOUND");
      }),
    ).toBeUndefined();
    expect(typeof requireUsearch()?.Index).toBe("function");
    const broken = new Error("usearch.node: invalid ELF header");
    expect(() =>
      requireUsearch(() => {
        throw broken;
      }),
    ).toThrow(broken);
  });
});
