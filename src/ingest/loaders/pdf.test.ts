import { describe, expect, it } from "vitest";
import { fixture } from "../../../test/fixtures/ingest/fixtures.js";
import { InvalidInputError } from "../../spec/errors.js";
import { loadPdf } from "./pdf.js";

describe("loadPdf", () => {
  it("extracts text page by page with the Info title and page offsets", async () => {
    const { docs, warnings } = await loadPdf({
      bytes: fixture("launch-checklist.pdf"),
      relPath: "docs/launch-checklist.pdf",
    });
    expect(warnings).toEqual([]);
    const doc = docs[0];
    expect(doc?.id).toBe("docs/launch-checklist.pdf");
    expect(doc?.title).toBe("Launch Checklist");
    expect(doc?.text).toContain("The pad crew arms the igniter 90 seconds before launch.");
    expect(doc?.metadata.pages).toBe(2);
    const starts = doc?.metadata.pageStarts as number[];
    expect(doc?.text.slice(starts[1])).toMatch(/^Recovery\nThe parachute deploys at 300 meters altitude\.$/);
  });

  it("fails an encrypted PDF with a clear reason", async () => {
    const error = await loadPdf({ bytes: fixture("encrypted.pdf"), relPath: "encrypted.pdf" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as Error).message).toBe("encrypted.pdf: encrypted PDF: a password is required to read it");
  });

  it("fails a corrupt PDF with a clear reason", async () => {
    const error = await loadPdf({ bytes: fixture("corrupt.pdf"), relPath: "corrupt.pdf" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as Error).message).toContain("corrupt.pdf: not a readable PDF");
  });
});
