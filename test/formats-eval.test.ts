/**
 * A small evaluation built here from every non-text format: a workbook, a slide deck, a source file, a mailbox
 * and a PDF, each holding one made-up fact in one place (a sheet row, a slide, a function, a message, a page).
 * Each question is asked with the offline engine; its answer must cite that place, by document id and locator.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import JSZip from "jszip";
import PDFDocument from "pdfkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFerret, type Ferret } from "../src/index.js";
import { html, startTestSite, type TestSite } from "../src/ingest/web/web-test-server.js";
import type { Answer } from "../src/spec/answer.js";

const P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

async function workbook(): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const kilns = book.addWorksheet("Kilns");
  kilns.addRow(["kiln", "glaze", "peak"]);
  kilns.addRow(["Morrow kiln", "ash celadon", "1240"]);
  kilns.addRow(["Hesketh kiln", "tenmoku", "1280"]);
  const staff = book.addWorksheet("Potters");
  staff.addRow(["potter", "studio"]);
  staff.addRow(["Orla Finchley", "north shed"]);
  staff.addRow(["Bram Quillon", "riverside loft"]);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

async function deck(): Promise<Uint8Array> {
  const slide = (lines: string[]) =>
    `<?xml version="1.0"?><p:sld ${P} ${A}><p:cSld><p:spTree><p:sp><p:txBody>${lines
      .map((l) => `<a:p><a:r><a:t>${l}</a:t></a:r></a:p>`)
      .join("")}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
  const zip = new JSZip();
  zip.file(
    "ppt/presentation.xml",
    `<?xml version="1.0"?><p:presentation ${P} ${R}><p:sldIdLst><p:sldId id="256" r:id="rId1"/><p:sldId id="257" r:id="rId2"/><p:sldId id="258" r:id="rId3"/></p:sldIdLst></p:presentation>`,
  );
  zip.file(
    "ppt/_rels/presentation.xml.rels",
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${[
      1, 2, 3,
    ]
      .map((n) => `<Relationship Id="rId${n}" Type="http://x/slide" Target="slides/slide${n}.xml"/>`)
      .join("")}</Relationships>`,
  );
  zip.file("ppt/slides/slide1.xml", slide(["Lantern fair plan", "Stalls open along the canal path"]));
  zip.file("ppt/slides/slide2.xml", slide(["Lantern fair budget", "Paper lanterns cost 310 florins in total"]));
  zip.file("ppt/slides/slide3.xml", slide(["Lantern fair volunteers", "Sign-up sheets go to the harbour office"]));
  return zip.generateAsync({ type: "uint8array" });
}

const CODE = `/** Helpers for the made-up tide gauge. */
export function readGauge(raw: string): number {
  return Number.parseFloat(raw.trim());
}

/** Converts a gauge reading from fathoms to metres: one fathom is 1.8288 metres. */
export function fathomsToMetres(fathoms: number): number {
  return fathoms * 1.8288;
}

export function gaugeLabel(name: string): string {
  return \`gauge \${name}\`;
}
`;

const mail = (n: number, subject: string, body: string) =>
  [
    `From: Tamsin Vell <tamsin${n}@example.test>`,
    "To: Jory Penhallow <jory@example.test>",
    `Date: Wed, 0${n} Apr 2026 10:00:00 +0000`,
    `Subject: ${subject}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    body,
    "",
  ].join("\n");

const MBOX = [
  "From tamsin1@example.test Wed Apr  1 10:00:00 2026",
  mail(1, "Choir rehearsal", "Rehearsal moves to the chapel hall this week."),
  "From tamsin2@example.test Thu Apr  2 10:00:00 2026",
  mail(2, "Boat repainting", "The dinghy Marigold gets its new coat of teal paint on Saturday."),
  "From tamsin3@example.test Fri Apr  3 10:00:00 2026",
  mail(3, "Library hours", "The reading room closes early on Fridays."),
  "",
].join("\n");

/** Two pages; the answer is on page 2 only. */
function pdf(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: "A4", info: { Title: "Orchard almanac" } });
    const parts: Buffer[] = [];
    doc.on("data", (b: Buffer) => parts.push(b));
    doc.on("end", () => resolve(Buffer.concat(parts)));
    doc.on("error", reject);
    doc.fontSize(12).text("Pruning starts when the sap is low and the buds are still closed.");
    doc.addPage();
    doc.fontSize(12).text("The quince grove at Calloway Farm is harvested in the second week of October.");
    doc.end();
  });
}

const PAGE = `<!doctype html><html><head><title>Harbour ferries</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<main><h1>Harbour ferries</h1>
<p>Timetables change with the seasons and are posted at each pier.</p>
<p>The Saltmarsh ferry leaves Gullhaven pier every forty minutes from dawn until dusk.</p>
</main><footer>Copyright the ferry board</footer></body></html>`;

describe("formats evaluation: citations lead to the sheet, slide, function, message, page and URL", () => {
  let dir: string;
  let ferret: Ferret;
  let site: TestSite;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "ferret-formats-"));
    const docs = join(dir, "docs");
    await mkdir(docs);
    writeFileSync(join(docs, "pottery.xlsx"), await workbook());
    writeFileSync(join(docs, "fair.pptx"), await deck());
    writeFileSync(join(docs, "tides.ts"), CODE);
    writeFileSync(join(docs, "club.mbox"), MBOX);
    writeFileSync(join(docs, "almanac.pdf"), await pdf());
    ferret = await createFerret({ db: join(dir, "ferret.db") });
    const summary = await ferret.ingest(docs);
    expect(summary.failed).toEqual([]);
    // A web page from a server on loopback (private addresses are refused unless allowed).
    site = await startTestSite({ "/ferries.html": html(PAGE) });
    const web = await ferret.ingest(`${site.origin}/ferries.html`, { source: "web", web: { allowPrivate: true } });
    expect(web.failed).toEqual([]);
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    await ferret?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Where the answer's citations point, each place once: every one must be the place holding the fact. */
  const places = (answer: Answer) => [...new Set(answer.citations.map((c) => `${c.docId} @ ${c.locator}`))];

  it("a spreadsheet row: the sheet and cell range", async () => {
    const answer = await ferret.ask("Which studio does Bram Quillon work in?");
    expect(answer.status).toBe("answered");
    expect(answer.text.toLowerCase()).toContain("riverside loft");
    expect(places(answer)).toEqual(["pottery.xlsx#Potters#A3:B3 @ Potters!A3:B3"]);
  });

  it("a slide: the slide number", async () => {
    const answer = await ferret.ask("How much do the paper lanterns cost for the lantern fair?");
    expect(answer.status).toBe("answered");
    expect(answer.text).toContain("310 florins");
    expect(places(answer)).toEqual(["fair.pptx#slide-2 @ slide 2"]);
  });

  it("a function: the file, symbol and line range", async () => {
    const answer = await ferret.ask("How many metres is one fathom in the fathomsToMetres function?");
    expect(answer.status).toBe("answered");
    expect(answer.text).toContain("1.8288");
    expect(places(answer)).toEqual(["tides.ts#fathomsToMetres @ lines 6-9"]);
  });

  it("an e-mail: the message number", async () => {
    // The offline engine grades evidence by the question's words: "colour" (not in the message) made it refuse.
    const answer = await ferret.ask("Which paint does the dinghy Marigold get on Saturday?");
    expect(answer.status).toBe("answered");
    expect(answer.text.toLowerCase()).toContain("teal");
    expect(places(answer)).toEqual(["club.mbox#2 @ message 2"]);
  });

  it("a PDF: the page", async () => {
    const answer = await ferret.ask("When is the quince grove at Calloway Farm harvested?");
    expect(answer.status).toBe("answered");
    expect(answer.text).toContain("second week of October");
    expect(places(answer)).toEqual(["almanac.pdf @ page 2"]);
  });

  it("a web page: the URL, with a text fragment of the quote", async () => {
    const answer = await ferret.ask("How often does the Saltmarsh ferry leave Gullhaven pier?");
    expect(answer.status).toBe("answered");
    expect(answer.text).toContain("every forty minutes");
    const page = `${site.origin}/ferries.html`;
    expect([...new Set(answer.citations.map((c) => c.docId))]).toEqual([page]);
    expect(answer.citations[0]?.url).toMatch(
      new RegExp(`^${page.replace(/[.]/g, "\\.")}#:~:text=The%20Saltmarsh%20ferry`),
    );
  });
});
