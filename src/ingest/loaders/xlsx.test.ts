import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import JSZip from "jszip";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidInputError, LimitExceededError } from "../../spec/errors.js";
import type { Principal } from "../../spec/principal.js";
import { createSqliteStore } from "../../stores/sqlite/index.js";
import { ingestPath } from "../ingest.js";
import { resolveLimits } from "../limits.js";
import { columnLetter, loadXlsx } from "./xlsx.js";

const dir = await mkdtemp(join(tmpdir(), "ferret-xlsx-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A made-up greenhouse workbook: a grouped, merged header over sub-headers, dates, a formula; and a plain sheet. */
async function workbook(): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const beds = book.addWorksheet("Beds");
  beds.getCell("A1").value = "Bed";
  beds.getCell("B1").value = "Planted";
  beds.getCell("C1").value = "Harvest";
  beds.mergeCells("C1:D1");
  beds.getCell("C2").value = "Kilos";
  beds.getCell("D2").value = "Crates";
  beds.addRow(["GB-7", new Date(Date.UTC(2026, 2, 14)), 41.5, 6]);
  beds.addRow(["GB-9", new Date(Date.UTC(2026, 3, 2)), 12, { formula: "C4/2", result: 6 }]);
  const crews = book.addWorksheet("Crew Rota");
  crews.addRow(["name", "bed", "shift"]);
  crews.addRow(["Ilse Marrow", "GB-7", "dawn"]);
  crews.addRow(["Teodor Vask", "GB-9", "dusk"]);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

describe("loadXlsx", () => {
  it("makes every sheet a table and a document per row, cited by sheet and cell range", async () => {
    const result = await loadXlsx({ bytes: await workbook(), relPath: "farm/plots.xlsx" });
    expect(result.tables?.map((t) => [t.file, t.schema.name])).toEqual([
      ["farm/plots.xlsx#Beds", "plots_beds"],
      ["farm/plots.xlsx#Crew Rota", "plots_crew_rota"],
    ]);
    const beds = result.tables?.[0];
    expect(beds?.schema.columns).toEqual([
      { name: "cells", type: "TEXT" },
      { name: "Bed", type: "TEXT" },
      { name: "Planted", type: "TEXT" },
      { name: "Harvest Kilos", type: "REAL" },
      { name: "Harvest Crates", type: "INTEGER" },
    ]);
    expect(beds?.rows[1]).toEqual({
      cells: "A4:D4",
      Bed: "GB-9",
      Planted: "2026-04-02",
      "Harvest Kilos": 12,
      "Harvest Crates": 6,
    });
    const first = result.docs[0];
    expect(first?.id).toBe("farm/plots.xlsx#Beds#A3:D3");
    expect(first?.title).toBe("Beds!A3:D3 GB-7");
    expect(first?.metadata).toMatchObject({ sheet: "Beds", range: "A3:D3", locator: "Beds!A3:D3" });
    expect(first?.text).toContain("Harvest Kilos: 41.5");
    expect(result.docs.map((d) => d.id)).toContain("farm/plots.xlsx#Crew Rota#A3:C3");
  });

  it("names columns past Z as Excel does", () => {
    expect([1, 26, 27, 52, 703].map(columnLetter)).toEqual(["A", "Z", "AA", "AZ", "AAA"]);
  });

  it("fails a file that is not a workbook and skips one over the zip caps, naming the file", async () => {
    const zip = new JSZip();
    zip.file("hello.txt", "not a workbook");
    const notBook = new Uint8Array(await zip.generateAsync({ type: "uint8array" }));
    await expect(loadXlsx({ bytes: notBook, relPath: "odd.xlsx" })).rejects.toThrow(InvalidInputError);
    await expect(loadXlsx({ bytes: notBook, relPath: "odd.xlsx" })).rejects.toThrow(/^odd\.xlsx: not a readable/);
    const capped = loadXlsx({
      bytes: await workbook(),
      relPath: "big.xlsx",
      limits: resolveLimits({ maxZipBytes: 100 }),
    });
    await expect(capped).rejects.toThrow(LimitExceededError);
    await expect(capped).rejects.toThrow(/^big\.xlsx: .*maxZipBytes/);
    const narrow = loadXlsx({
      bytes: await workbook(),
      relPath: "w.xlsx",
      limits: resolveLimits({ maxCsvColumns: 2 }),
    });
    await expect(narrow).rejects.toThrow(/w\.xlsx, sheet "Beds": column 3, over the maxCsvColumns cap/);
  });

  it("ingests a workbook whose sheets answer SQL, each row id the id of its row document", async () => {
    const folder = join(dir, "farm");
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, "plots.xlsx"), await workbook());
    const store = await createSqliteStore({ path: ":memory:" });
    const owner: Principal = { tenant: "t", user: "u", roles: ["*"] };
    try {
      const summary = await ingestPath({ store, path: folder, tenant: "t", source: "farm" });
      expect(summary.failed).toEqual([]);
      expect(summary.added).toBe(4);
      const sql = await store.querySql(
        'SELECT Bed, "Harvest Crates" FROM plots_beds WHERE "Harvest Kilos" > 20',
        owner,
      );
      expect(sql.rows).toEqual([{ Bed: "GB-7", "Harvest Crates": 6 }]);
      const crew = await store.querySql("SELECT _id FROM plots_crew_rota WHERE shift = 'dusk'", owner);
      expect(crew.rows).toEqual([{ _id: "plots.xlsx#Crew Rota#A3:C3" }]);
    } finally {
      await store.close();
    }
  });
});
