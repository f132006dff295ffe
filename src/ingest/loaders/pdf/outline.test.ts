import { describe, expect, it } from "vitest";
import { item } from "../../../../test/fixtures/pdf/items.js";
import { pageLines, toItems } from "./lines.js";
import { MAX_OUTLINE_ENTRIES, matchOutline, type OutlineNode, type OutlineSource, outlineEntries } from "./outline.js";

const ref = (n: number) => ({ num: 100 + n, gen: 0 });

function source(roots: OutlineNode[] | null, named: Record<string, unknown[]> = {}): OutlineSource {
  return {
    getOutline: async () => roots,
    getDestination: async (id) => named[id] ?? null,
    getPageIndex: async (r) => {
      if (r.num < 100) throw new Error("bad reference");
      return r.num - 100;
    },
  };
}

describe("outlineEntries", () => {
  it("resolves nested entries, named destinations and positions, and leaves out what does not resolve", async () => {
    const entries = await outlineEntries(
      source(
        [
          {
            title: " PART I ",
            dest: [ref(0), { name: "XYZ" }, 0, 700, 0],
            items: [
              { title: "Item 1. Financial Statements", dest: "item1" },
              { title: "Broken", dest: [{ num: 1, gen: 0 }, { name: "Fit" }] },
              { title: "Off the end", dest: [ref(99), { name: "Fit" }] },
            ],
          },
          { title: "PART II", dest: [3, { name: "FitH" }, 500] },
          { title: "", dest: [ref(1), { name: "Fit" }] },
        ],
        { item1: [ref(1), { name: "Fit" }] },
      ),
      10,
    );
    expect(entries).toEqual([
      { title: "PART I", level: 1, page: 0, top: 700 },
      { title: "Item 1. Financial Statements", level: 2, page: 1 },
      { title: "PART II", level: 1, page: 3, top: 500 },
    ]);
  });

  it("reads no outline as none, and stops after a bounded number of entries", async () => {
    expect(await outlineEntries(source(null), 1)).toEqual([]);
    const many = Array.from({ length: MAX_OUTLINE_ENTRIES + 50 }, () => ({ title: "x", dest: [0, { name: "Fit" }] }));
    expect(await outlineEntries(source(many), 1)).toHaveLength(MAX_OUTLINE_ENTRIES);
  });
});

describe("matchOutline", () => {
  const page = pageLines(
    toItems([
      item("Item 2. Management's Discussion and Analysis of", 72, 720, { size: 13 }),
      item("Financial Condition", 72, 705, { size: 13 }),
      item("Prose under the heading.", 72, 680),
      item("Gross margin", 72, 650),
      item("More prose.", 72, 636),
    ]).upright,
  );
  const all = () => true;

  it("places an entry on the lines that print its title, across line breaks and whatever the case", () => {
    const [m] = matchOutline(page, all, [
      { title: "ITEM 2. Management’s Discussion and Analysis of Financial Condition", level: 2, page: 0, top: 735 },
    ]);
    expect([m?.start, m?.end]).toEqual([0, 2]);
  });

  it("searches from the destination's position and inserts an entry whose title is not printed", () => {
    const matches = matchOutline(page, all, [
      { title: "Gross Margin", level: 3, page: 0, top: 700 },
      { title: "Segment Results", level: 3, page: 0, top: 640 },
    ]);
    expect(matches.map((m) => [m.entry.title, m.start, m.end])).toEqual([
      ["Gross Margin", 3, 4],
      ["Segment Results", 4, 4],
    ]);
  });

  it("does not place an entry on lines outside the free set", () => {
    const [m] = matchOutline(page, (i) => i !== 3, [{ title: "Gross margin", level: 3, page: 0 }]);
    expect([m?.start, m?.end]).toEqual([0, 0]);
  });
});
