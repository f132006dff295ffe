import { describe, expect, it } from "vitest";
import { item, itemRight } from "../../../../test/fixtures/pdf/items.js";
import { pageLines, toItems } from "./lines.js";
import { findTables, isNumeric } from "./tables.js";

const lines = (raw: Parameters<typeof toItems>[0]) => pageLines(toItems(raw).upright);
/** A row: label at x, values right-aligned at 300 and 400. */
const row = (y: number, label: string, a: string, b: string, x = 10) => [
  item(label, x, y),
  itemRight(a, 300, y),
  itemRight(b, 400, y),
];

describe("findTables", () => {
  it("merges a column header printed on two lines and attaches it to every row's values", () => {
    const page = lines([
      item("Balance sheet figures follow.", 10, 720),
      item("July 1,", 265, 700),
      item("September 30,", 340, 700),
      item("2023", 280, 688),
      item("2022", 380, 688),
      ...row(674, "Cash and cash equivalents", "$59,351", "$48,073"),
      ...row(662, "Inventories", "59,085", "29,553"),
      item("The rest is prose.", 10, 630),
    ]);
    const tables = findTables(page);
    expect(tables).toHaveLength(1);
    expect(tables[0]?.rows).toEqual([
      "Cash and cash equivalents | July 1, 2023: $59,351 | September 30, 2022: $48,073",
      "Inventories | July 1, 2023: 59,085 | September 30, 2022: 29,553",
    ]);
    expect(page.slice(tables[0]?.start, tables[0]?.end).map((l) => l.text)[0]).toBe("July 1, September 30,");
  });

  it("gives a header that spans two columns to both, and prefixes indented rows with their caption", () => {
    const page = lines([
      item("Three Months Ended", 290, 712),
      item("July 1,", 265, 700),
      item("June 25,", 360, 700),
      item("2023", 280, 688),
      item("2022", 380, 688),
      item("Net sales:", 10, 674),
      ...row(662, "Products", "60,584", "63,355", 20),
      ...row(650, "Services", "21,213", "19,604", 20),
      ...row(638, "Total net sales", "81,797", "82,959"),
    ]);
    expect(findTables(page)[0]?.rows).toEqual([
      "Net sales:",
      "Net sales: Products | Three Months Ended July 1, 2023: 60,584 | Three Months Ended June 25, 2022: 63,355",
      "Net sales: Services | Three Months Ended July 1, 2023: 21,213 | Three Months Ended June 25, 2022: 19,604",
      "Total net sales | Three Months Ended July 1, 2023: 81,797 | Three Months Ended June 25, 2022: 82,959",
    ]);
  });

  it("joins a row label wrapped onto two lines", () => {
    const page = lines([
      ...row(700, "Cash", "1,000", "2,000"),
      item("Net cash provided by operating", 10, 688),
      ...row(676, "activities", "3,000", "4,000", 20),
      item("Other items", 10, 664),
      ...row(652, "Total", "5,000", "6,000"),
    ]);
    expect(findTables(page)[0]?.rows).toEqual([
      "Cash | 1,000 | 2,000",
      "Net cash provided by operating activities | 3,000 | 4,000",
      "Other items",
      "Total | 5,000 | 6,000",
    ]);
  });

  it("writes rows without a header as plain cells, and a table of text as cells", () => {
    const numbers = lines([
      ...row(700, "Item 1. Financial Statements", "1", "3"),
      ...row(688, "Item 2. Risk", "2", "4"),
    ]);
    expect(findTables(numbers)[0]?.rows).toEqual(["Item 1. Financial Statements | 1 | 3", "Item 2. Risk | 2 | 4"]);
    const text = lines([
      item("Exhibit", 10, 700),
      item("Description", 200, 700),
      item("31.1", 10, 688),
      item("Certification", 200, 688),
    ]);
    expect(findTables(text)[0]?.rows).toEqual(["Exhibit | Description", "31.1 | Certification"]);
  });

  it("leaves prose alone", () => {
    const page = lines([item("A paragraph line that runs across the page.", 10, 700), item("And another.", 10, 688)]);
    expect(findTables(page)).toEqual([]);
  });
});

describe("isNumeric", () => {
  it("reads amounts as filings print them", () => {
    for (const text of ["1,234", "(56.2)", "$4,324", "12%", "—", "-", "2023", "$(13,150)"])
      expect(isNumeric(text)).toBe(true);
    for (const text of ["July 1,", "n/a", "Q3", "1a"]) expect(isNumeric(text)).toBe(false);
  });
});
