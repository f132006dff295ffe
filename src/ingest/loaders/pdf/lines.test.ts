import { describe, expect, it } from "vitest";
import { item, itemRight } from "../../../../test/fixtures/pdf/items.js";
import { groupLines, pageLines, toItems } from "./lines.js";

const lines = (raw: Parameters<typeof toItems>[0]) => pageLines(toItems(raw).upright);

describe("pageLines", () => {
  it("groups items by baseline, top to bottom, and orders each line by x whatever the stream order", () => {
    const out = lines([
      item("world", 40, 700),
      item("Second", 10, 686),
      item("Hello", 10, 700.5),
      item("line", 46, 686),
    ]);
    expect(out.map((l) => l.text)).toEqual(["Hello world", "Second line"]);
  });

  it("keeps a superscript on its line", () => {
    const out = lines([item("Revenue", 10, 700), item("1", 45, 703, { size: 6 }), item("rose", 50, 700)]);
    expect(out).toHaveLength(1);
  });

  it("splits cells at wide gaps, joins a currency sign to its amount and drops dot leaders", () => {
    const [line] = lines([
      item("Net sales", 10, 700),
      item(". . . . . . . . . .", 60, 700),
      item("$", 200, 700),
      itemRight("81,797", 260, 700),
      itemRight("(1,234", 330, 700),
      item(")", 330, 700),
      itemRight("12", 400, 700),
      item("%", 400, 700),
    ]);
    expect(line?.cells.map((c) => c.text)).toEqual(["Net sales", "$81,797", "(1,234)", "12%"]);
  });

  it("starts a new cell at a currency sign even when it sits close to the amount before it", () => {
    const [line] = lines([itemRight("47,707", 100, 700), item("$", 104, 700), itemRight("87,170", 160, 700)]);
    expect(line?.cells.map((c) => c.text)).toEqual(["47,707", "$87,170"]);
  });

  it("joins Chinese and Japanese items without spaces and Latin words with one", () => {
    const [zh, ja, de] = lines([
      item("测试", 10, 700),
      item("程序", 20, 700),
      item("打ち上げ", 10, 680),
      item("の日", 30, 680),
      item("Wartung", 10, 660),
      item("der", 47, 660),
      item("Anlage", 64, 660),
    ]);
    expect([zh?.text, ja?.text, de?.text]).toEqual(["测试程序", "打ち上げの日", "Wartung der Anlage"]);
  });

  it("drops a fake-bold duplicate printed a fraction of a point to the right", () => {
    const [line] = lines([item("Total", 10, 700, { font: "b" }), item("Total", 10.3, 700, { font: "b" })]);
    expect(line?.text).toBe("Total");
    expect(line?.uniform).toBe(true);
  });

  it("reads a two-column page column by column", () => {
    const raw = [];
    for (let k = 0; k < 8; k++) {
      raw.push(item(`left column sentence ${k} of this page`, 10, 700 - 12 * k));
      raw.push(item(`right column sentence ${k} of this page`, 300, 700 - 12 * k));
    }
    const out = lines(raw);
    expect(out.map((l) => l.text)).toEqual([
      ...Array.from({ length: 8 }, (_, k) => `left column sentence ${k} of this page`),
      ...Array.from({ length: 8 }, (_, k) => `right column sentence ${k} of this page`),
    ]);
  });

  it("puts text turned by a right angle in its own frame and text at other angles apart", () => {
    const turned = (str: string, x: number, y: number) => ({ ...item(str, x, y), transform: [0, 10, -10, 0, x, y] });
    const {
      upright,
      turned: groups,
      loose,
    } = toItems([
      item("Upright", 10, 700),
      turned("Sideways", 300, 100),
      turned("table", 300, 150),
      { ...item("Slanted", 10, 10), transform: [7, 7, -7, 7, 10, 10] },
      { str: "No position" },
    ]);
    expect(upright.map((i) => i.str)).toEqual(["Upright"]);
    expect(groups.map((g) => groupLines(g).map((l) => l.text))).toEqual([["Sideways table"]]);
    expect(loose).toEqual(["Slanted", "No position"]);
  });
});
