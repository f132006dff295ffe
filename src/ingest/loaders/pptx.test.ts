import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { InvalidInputError, LimitExceededError } from "../../spec/errors.js";
import { resolveLimits } from "../limits.js";
import { loadPptx } from "./pptx.js";

const P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

const paras = (lines: string[]) =>
  lines
    .map(
      (l) =>
        `<a:p><a:r><a:t>${l.split(" ")[0]}</a:t></a:r><a:r><a:t> ${l.split(" ").slice(1).join(" ")}</a:t></a:r></a:p>`,
    )
    .join("");
const slide = (lines: string[]) =>
  `<?xml version="1.0"?><p:sld ${P} ${A}><p:cSld><p:spTree><p:sp><p:txBody>${paras(lines)}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
const rels = (items: [string, string, string][]) =>
  `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="http://x/${type}" Target="${target}"/>`)
    .join("")}</Relationships>`;

/** A made-up two-slide deck whose file order (slide1, slide2) is the reverse of its show order. */
async function deck(): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(
    "ppt/presentation.xml",
    `<?xml version="1.0"?><p:presentation ${P} ${R}><p:sldIdLst><p:sldId id="256" r:id="rId7"/><p:sldId id="257" r:id="rId3"/></p:sldIdLst></p:presentation>`,
  );
  zip.file(
    "ppt/_rels/presentation.xml.rels",
    rels([
      ["rId3", "slide", "slides/slide1.xml"],
      ["rId7", "slide", "slides/slide2.xml"],
    ]),
  );
  zip.file("ppt/slides/slide2.xml", slide(["Owl survey kickoff", "Counts start at the north ridge &amp; marsh"]));
  zip.file("ppt/slides/slide1.xml", slide(["Nest box budget", "Forty boxes cost 1,240 crowns"]));
  zip.file("ppt/slides/_rels/slide1.xml.rels", rels([["rId2", "notesSlide", "../notesSlides/notesSlide1.xml"]]));
  zip.file(
    "ppt/notesSlides/notesSlide1.xml",
    `<?xml version="1.0"?><p:notes ${P} ${A}><p:cSld><p:spTree><p:sp><p:txBody>${paras([
      "Mention the cedar supplier quote",
    ])}<a:p><a:fld><a:t>2</a:t></a:fld></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:notes>`,
  );
  return zip.generateAsync({ type: "uint8array" });
}

describe("loadPptx", () => {
  it("makes one document per slide in show order, with speaker notes and the slide in the id and locator", async () => {
    const result = await loadPptx({ bytes: await deck(), relPath: "talks/owl-survey.pptx" });
    expect(result.docs.map((d) => [d.id, d.title, d.metadata.locator])).toEqual([
      ["talks/owl-survey.pptx#slide-1", "owl-survey, slide 1: Owl survey kickoff", "slide 1"],
      ["talks/owl-survey.pptx#slide-2", "owl-survey, slide 2: Nest box budget", "slide 2"],
    ]);
    expect(result.docs[0]?.text).toBe("Owl survey kickoff\nCounts start at the north ridge & marsh");
    expect(result.docs[1]?.text).toBe(
      "Nest box budget\nForty boxes cost 1,240 crowns\n\nSpeaker notes:\nMention the cedar supplier quote",
    );
  });

  it("fails a zip that is no deck and skips one over the zip caps, naming the file", async () => {
    const zip = new JSZip();
    zip.file("readme.txt", "hello");
    const notDeck = loadPptx({ bytes: await zip.generateAsync({ type: "uint8array" }), relPath: "x.pptx" });
    await expect(notDeck).rejects.toThrow(InvalidInputError);
    await expect(notDeck).rejects.toThrow(/^x\.pptx: not a readable \.pptx file/);
    const capped = loadPptx({ bytes: await deck(), relPath: "y.pptx", limits: resolveLimits({ maxZipEntries: 2 }) });
    await expect(capped).rejects.toThrow(LimitExceededError);
    await expect(capped).rejects.toThrow(/^y\.pptx: .*maxZipEntries/);
  });
});
