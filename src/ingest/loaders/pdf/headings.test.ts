import { describe, expect, it } from "vitest";
import { item } from "../../../../test/fixtures/pdf/items.js";
import { bodyStyle, findHeadings, joinItemLabel, styleLevels } from "./headings.js";
import { type Line, pageLines, toItems } from "./lines.js";

const lines = (raw: Parameters<typeof toItems>[0]) => pageLines(toItems(raw).upright);
const prose = (y: number, text = "Body text that runs across the whole width of the page, as prose does here.") =>
  item(text, 72, y);

function headings(page: Line[]) {
  return findHeadings(page, (i) => i >= 0 && i < page.length, bodyStyle([page])).map((h) => h.text);
}

describe("findHeadings", () => {
  it("finds larger type, and a heading set on two lines as one", () => {
    const page = lines([
      item("Item 2. Management's Discussion and Analysis of Financial", 72, 720, { size: 13, font: "bold" }),
      item("Condition and Results of Operations", 72, 705, { size: 13, font: "bold" }),
      prose(680),
      prose(668),
      prose(656),
    ]);
    expect(headings(page)).toEqual([
      "Item 2. Management's Discussion and Analysis of Financial Condition and Results of Operations",
    ]);
  });

  it("finds a bold line of body size standing alone, but not a bold sentence or a short last line of prose", () => {
    const page = lines([
      prose(720),
      prose(708, "Short last line."),
      item("Gross Margin", 72, 690, { font: "bold" }),
      prose(676),
      item("Bold sentences end with a period.", 72, 658, { font: "bold" }),
      prose(644),
      prose(632, "A short line"),
    ]);
    expect(headings(page)).toEqual(["Gross Margin"]);
  });

  it("finds filing items and numbered headings in body type when they stand alone, not inside a paragraph", () => {
    const page = lines([
      prose(720, "Risks are described in the section named"),
      item("Item 1A. Risk Factors of the 2022 Form 10-K and in the rest of this report, which", 72, 708),
      prose(696),
      prose(684, "It ends here."),
      item("PART II — OTHER INFORMATION", 72, 664),
      prose(650),
      prose(638, "It ends here."),
      item("3.2 Results", 72, 618),
      prose(604),
    ]);
    expect(headings(page)).toEqual(["PART II — OTHER INFORMATION", "3.2 Results"]);
  });

  it("does not take lines outside the free set (tables, outline headings)", () => {
    const page = lines([item("Big Heading", 72, 720, { size: 16 }), prose(700), prose(688), prose(676)]);
    expect(findHeadings(page, (i) => i !== 0, bodyStyle([page]))).toEqual([]);
  });
});

describe("joinItemLabel", () => {
  it("joins 'Item 1A.' and its title set a tab apart, but not a contents row with a page number", () => {
    const [item1a, contents] = lines([
      item("Item 1A.", 72, 700),
      item("Risk Factors", 140, 700),
      item("Item 1.", 72, 680),
      item("Financial Statements", 140, 680),
      item("3", 500, 680),
    ]);
    expect(joinItemLabel(item1a as Line).cells.map((c) => c.text)).toEqual(["Item 1A. Risk Factors"]);
    expect(joinItemLabel(contents as Line).cells).toHaveLength(3);
  });
});

describe("styleLevels", () => {
  it("ranks larger sizes first and, at one size, another font before the body font", () => {
    expect([...styleLevels(["10|r", "16|b", "10|b", "13|b", "16|b"])]).toEqual([
      ["16|b", 1],
      ["13|b", 2],
      ["10|b", 3],
      ["10|r", 4],
    ]);
    expect(styleLevels(["11|b"], 4).get("11|b")).toBe(4);
  });
});
