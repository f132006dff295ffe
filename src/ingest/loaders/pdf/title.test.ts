import { describe, expect, it } from "vitest";
import { fileLabel, isJunkTitle, pdfTitle } from "./title.js";

describe("pdfTitle", () => {
  it("keeps a metadata title that reads as one", () => {
    expect(pdfTitle({ metadataTitle: " Launch  Checklist ", relPath: "a.pdf", firstHeading: "X" })).toBe(
      "Launch Checklist",
    );
    expect(pdfTitle({ metadataTitle: "Q3 2023 Form 10-Q", relPath: "a.pdf" })).toBe("Q3 2023 Form 10-Q");
  });

  it("titles a document with a junk metadata title from its file name and first heading", () => {
    const relPath = "filings/AAPL_10-Q_2023-Q3.pdf";
    const heading = "Condensed Consolidated Financial Statements";
    for (const junk of [
      undefined,
      "",
      "0000320193-23-000106",
      "aapl-20230701",
      "Microsoft Word - q3 draft.docx",
      "Untitled",
      "report-final.pdf",
      "AAPL_10-Q_2023-Q3",
    ])
      expect(pdfTitle({ metadataTitle: junk, relPath, firstHeading: heading })).toBe(
        "AAPL 10-Q 2023-Q3 — Condensed Consolidated Financial Statements",
      );
    expect(pdfTitle({ metadataTitle: "Untitled", relPath })).toBe("AAPL 10-Q 2023-Q3");
  });

  it("shortens a long first heading", () => {
    const title = pdfTitle({ relPath: "x.pdf", firstHeading: "word ".repeat(60) });
    expect(title.length).toBeLessThan(130);
    expect(title.endsWith("…")).toBe(true);
  });
});

describe("isJunkTitle and fileLabel", () => {
  it("accept real titles in other languages", () => {
    expect(isJunkTitle("Wartungsplan für die Anlage", "a.pdf")).toBe(false);
    expect(isJunkTitle("打ち上げ当日の手順", "a.pdf")).toBe(false);
  });

  it("turn underscores into spaces", () => {
    expect(fileLabel("x/MSFT_FY24_Q2_10-Q.pdf")).toBe("MSFT FY24 Q2 10-Q");
  });
});
