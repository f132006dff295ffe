import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../spec/errors.js";
import { loadDocx } from "./docx.js";

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

function paragraph(text: string, style?: string): string {
  const props = style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : "";
  return `<w:p>${props}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
}

/** A minimal valid .docx: content types, package relationships, the document and its heading styles. */
async function makeDocx(paragraphs: string[]): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(
    "[Content_Types].xml",
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`,
  );
  zip.file(
    "_rels/.rels",
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  zip.file(
    "word/_rels/document.xml.rels",
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
  );
  zip.file(
    "word/styles.xml",
    `<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style></w:styles>`,
  );
  zip.file(
    "word/document.xml",
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>${paragraphs.join("")}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: "uint8array" });
}

describe("loadDocx", () => {
  it("keeps Word headings as # lines and takes the first as the title", async () => {
    const bytes = await makeDocx([
      paragraph("Range Safety Plan", "Heading1"),
      paragraph("The range closes 2 hours before launch."),
      paragraph("Roadblocks", "Heading2"),
      paragraph("Roadblocks are staffed by 4 marshals."),
    ]);
    const { docs } = await loadDocx({ bytes, relPath: "plans/range.docx" });
    expect(docs[0]?.id).toBe("plans/range.docx");
    expect(docs[0]?.title).toBe("Range Safety Plan");
    expect(docs[0]?.text).toBe(
      "# Range Safety Plan\n\nThe range closes 2 hours before launch.\n\n## Roadblocks\n\nRoadblocks are staffed by 4 marshals.",
    );
  });

  it("falls back to the file name without headings", async () => {
    const { docs } = await loadDocx({ bytes: await makeDocx([paragraph("Plain body.")]), relPath: "memo.docx" });
    expect(docs[0]?.title).toBe("memo");
    expect(docs[0]?.text).toBe("Plain body.");
  });

  it("fails a file that is not a zip with a reason naming it", async () => {
    const error = await loadDocx({ bytes: new TextEncoder().encode("not a zip"), relPath: "fake.docx" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as Error).message).toMatch(/^fake\.docx: not a readable \.docx file/);
  });
});
