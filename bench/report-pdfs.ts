/**
 * Realistic quarterly-report PDFs for the ingest bench, generated with pdfkit (nothing is committed):
 * letter pages with a running header ("Company | Q3 2024 Form 10-Q") and footer (page number), numbered
 * item headings, sub-headings, justified paragraphs of varied prose, and tables of figures whose column
 * headers span two lines ("Three Months Ended" / "September 30, 2024"), as filings have them.
 */
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import PDFDocument from "pdfkit";
import { paragraph, type Random, seeded } from "../test/fixtures/text/prose.js";

const COMPANIES = ["Northwind Freight Inc.", "Kestrel Logistics Corp.", "Harbor Trust Bancorp", "Quilmaro Energy Ltd."];
const ITEMS = [
  "Item 1. Financial Statements",
  "Item 2. Management's Discussion and Analysis of Financial Condition and Results of Operations",
  "Item 3. Quantitative and Qualitative Disclosures About Market Risk",
  "Item 4. Controls and Procedures",
  "Item 1A. Risk Factors",
];
const SUBHEADINGS = ["Results of Operations", "Liquidity and Capital Resources", "Segment Information", "Outlook"];
const ROWS = ["Net revenue", "Cost of revenue", "Gross profit", "Operating expenses", "Operating income", "Net income"];

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function figure(random: Random): string {
  return Math.round(random() * 900_000 + 1_000).toLocaleString("en-US");
}

function table(doc: PDFKit.PDFDocument, random: Random, quarter: string): void {
  const left = doc.page.margins.left;
  const widths = [190, 100, 100, 100];
  const header = [
    ["", "Three Months Ended", "Nine Months Ended", "Change"],
    ["(in thousands)", quarter, quarter, "%"],
  ];
  doc.font("Helvetica-Bold").fontSize(8);
  for (const row of header) {
    const y = doc.y;
    let x = left;
    row.forEach((cell, i) => {
      doc.text(cell, x, y, { width: widths[i], align: i === 0 ? "left" : "right", lineBreak: false });
      x += widths[i] as number;
    });
    doc.moveDown(0.3);
  }
  doc.font("Helvetica").fontSize(8);
  for (const label of ROWS) {
    if (doc.y > doc.page.height - doc.page.margins.bottom - 20) doc.addPage();
    const y = doc.y;
    const cells = [label, `$ ${figure(random)}`, `$ ${figure(random)}`, `${(random() * 40 - 10).toFixed(1)}%`];
    let x = left;
    cells.forEach((cell, i) => {
      doc.text(cell, x, y, { width: widths[i], align: i === 0 ? "left" : "right", lineBreak: false });
      x += widths[i] as number;
    });
    doc.moveDown(0.25);
  }
  doc.x = left;
  doc.moveDown(0.8);
}

/** Writes one report of about `pages` pages; resolves when the file is complete. */
export function writeReportPdf(options: { path: string; seed: number; pages: number }): Promise<void> {
  const random = seeded(options.seed);
  const company = pick(random, COMPANIES);
  const year = 2019 + Math.floor(random() * 6);
  const q = 1 + Math.floor(random() * 3);
  const quarter = ["March 31", "June 30", "September 30"][q - 1] as string;
  const doc = new PDFDocument({
    size: "LETTER",
    margins: { top: 72, bottom: 72, left: 72, right: 72 },
    bufferPages: true,
    info: { Title: `0000${Math.floor(random() * 1e6)}-${year}-${q}`, Author: company },
  });
  const done = new Promise<void>((resolve, reject) => {
    const out = createWriteStream(options.path);
    out.on("finish", resolve);
    out.on("error", reject);
    doc.pipe(out);
  });
  let item = 0;
  while (doc.bufferedPageRange().count < options.pages) {
    if (random() < 0.12 || item === 0) {
      doc
        .font("Helvetica-Bold")
        .fontSize(13)
        .text(ITEMS[item++ % ITEMS.length] as string, { align: "left" });
      doc.moveDown(0.5);
    }
    if (random() < 0.3) {
      doc.font("Helvetica-Bold").fontSize(10.5).text(pick(random, SUBHEADINGS));
      doc.moveDown(0.3);
    }
    if (random() < 0.2) table(doc, random, `${quarter}, ${year}`);
    doc
      .font("Helvetica")
      .fontSize(10)
      .text(paragraph(random, "en", 3, 9), { align: "justify" });
    doc.moveDown(0.7);
  }
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const { margins, width, height } = doc.page;
    const bottom = margins.bottom;
    margins.bottom = 0; // the footer sits in the margin: no page break for it
    doc.font("Helvetica").fontSize(8);
    doc.text(`${company} | Q${q} ${year} Form 10-Q`, margins.left, 36, { width: width - 144, lineBreak: false });
    doc.text(String(i + 1), margins.left, height - 48, { width: width - 144, align: "center", lineBreak: false });
    margins.bottom = bottom;
  }
  doc.end();
  return done;
}

/** Writes `files` reports of `pages` pages each into `dir`; returns their paths. */
export async function writeReportPdfs(options: { dir: string; files: number; pages: number }): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < options.files; i++) {
    const path = join(options.dir, `report-${String(i + 1).padStart(2, "0")}.pdf`);
    await writeReportPdf({ path, seed: 1_000 + i, pages: options.pages });
    paths.push(path);
  }
  return paths;
}
