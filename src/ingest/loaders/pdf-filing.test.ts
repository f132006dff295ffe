import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildFilingPdf, type FilingPdf } from "../../../test/fixtures/pdf/filing.js";
import { createSqliteStore } from "../../stores/sqlite/index.js";
import { chunkDocument } from "../chunker.js";
import { ingestPath } from "../ingest.js";
import type { LoadedDocument } from "../types.js";
import { loadPdf } from "./pdf.js";

const REL = "filings/ACME_10-Q_2023-Q3.pdf";
let filing: FilingPdf;
let doc: LoadedDocument;

async function load(bytes: Uint8Array, relPath = REL): Promise<LoadedDocument> {
  const { docs, warnings } = await loadPdf({ bytes, relPath });
  expect(warnings).toEqual([]);
  return docs[0] as LoadedDocument;
}

beforeAll(async () => {
  filing = await buildFilingPdf({ pages: 8, seed: 7 });
  doc = await load(filing.bytes);
});

describe("loadPdf on a quarterly filing", () => {
  it("drops the running header and footer of every page and the glyph debris", () => {
    for (let n = 1; n <= 8; n++) {
      expect(doc.text).not.toContain(filing.header(n));
      expect(doc.text).not.toContain(filing.footer(n));
    }
    expect(doc.text).not.toContain("Form 10-Q |");
    expect(doc.text).not.toContain("Confidential");
    expect(filing.debris.length).toBeGreaterThan(2);
    expect(doc.text).not.toMatch(/^[^\p{L}\p{N}]+$/mu);
    expect(doc.text).not.toContain("®");
    expect(doc.text).not.toContain(". . . .");
  });

  it("keeps each table row with its two-line column headers, in the chunk that holds the row", () => {
    const chunks = chunkDocument({ doc });
    const checked: string[] = [];
    for (const table of filing.tables) {
      const headers = table.columns.map((lines, c) => {
        const span = table.spans.find((s) => s.from <= c && c <= s.to);
        return [span?.text, ...lines].filter(Boolean).join(" ");
      });
      for (const row of table.rows.filter((r) => r.values.length > 0)) {
        const cells = row.values.map((v, c) => `${headers[c]}: ${row.dollar ? "$" : ""}${v}`);
        const chunk = chunks.find((ch) => cells.every((cell) => ch.text.includes(cell)) && ch.text.includes(row.label));
        expect(chunk, `${row.label}: ${cells.join(" | ")}`).toBeDefined();
        checked.push(cells[0] as string);
      }
    }
    expect(checked).toContain(`July 1, 2023: $${filing.tables.find((t) => t.spans.length === 0)?.rows[1]?.values[0]}`);
    expect(checked.some((c) => c.startsWith("Three Months Ended July 1, 2023: "))).toBe(true);
  });

  it("finds the sections from the outline, nested as the outline nests them", () => {
    const paths = new Set(chunkDocument({ doc }).map((c) => c.section.join(" / ")));
    const outlined = filing.headings.filter((h) => h.level <= 3);
    for (const h of outlined)
      expect(
        [...paths].some((p) => p.includes(h.text)),
        h.text,
      ).toBe(true);
    expect(paths).toContain(
      "PART I — FINANCIAL INFORMATION / Item 2. Management's Discussion and Analysis of Financial Condition and Results of Operations / Gross Margin",
    );
    expect(paths.size).toBeGreaterThanOrEqual(outlined.length);
  });

  it("finds the sections from the headings' type when there is no outline", async () => {
    const plain = await load((await buildFilingPdf({ pages: 8, seed: 7, outline: false })).bytes);
    for (const h of filing.headings)
      expect(plain.text).toMatch(new RegExp(`^#{${h.level}} ${escapeRegExp(h.text)}$`, "m"));
    const paths = new Set(chunkDocument({ doc: plain }).map((c) => c.section.join(" / ")));
    expect(paths).toContain(
      "PART I — FINANCIAL INFORMATION / Item 1. Financial Statements / Notes to Condensed Consolidated Financial Statements",
    );
  });

  it("points each page start at that page's text", () => {
    const starts = doc.metadata.pageStarts as number[];
    expect(starts).toHaveLength(8);
    for (const h of filing.headings) {
      const at = doc.text.search(new RegExp(`^#+ ${escapeRegExp(h.text)}$`, "m"));
      expect(at, h.text).toBeGreaterThanOrEqual(starts[h.page - 1] as number);
      expect(at, h.text).toBeLessThan(starts[h.page] ?? doc.text.length);
    }
    for (const start of starts.slice(1)) expect(doc.text.slice(start - 2, start)).toBe("\n\n");
  });
});

describe("loadPdf titles", () => {
  it("titles a filing with a junk metadata title from its file name and first heading", () => {
    expect(doc.title).toBe("ACME 10-Q 2023-Q3 — FORM 10-Q");
  });

  it("keeps a good metadata title", async () => {
    const good = await load((await buildFilingPdf({ pages: 1, title: "Acme Corp Quarterly Report" })).bytes);
    expect(good.title).toBe("Acme Corp Quarterly Report");
  });

  it("makes the file name of a junk-titled PDF searchable", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ferret-pdf-"));
    try {
      await mkdir(join(dir, "docs"));
      await writeFile(join(dir, "docs", "Zephyrine_10-Q.pdf"), (await buildFilingPdf({ pages: 2 })).bytes);
      const store = await createSqliteStore({ path: join(dir, "ferret.db") });
      try {
        await ingestPath({ store, path: join(dir, "docs"), tenant: "t" });
        const hits = await store.keywordSearch({
          principal: { tenant: "t", user: "u", roles: ["*"] },
          terms: ["zephyrine"],
          k: 5,
        });
        expect(hits.map((h) => h.docId)).toContain("Zephyrine_10-Q.pdf");
      } finally {
        await store.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
