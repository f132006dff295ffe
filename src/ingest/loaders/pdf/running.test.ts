import { describe, expect, it } from "vitest";
import { item } from "../../../../test/fixtures/pdf/items.js";
import { pageLines, toItems } from "./lines.js";
import { type PageLines, runningLines } from "./running.js";

/** A letter-size page: optional first line at the top edge, body lines, optional last line at the bottom. */
function page(top: string | undefined, body: string[], bottom?: string): PageLines {
  const raw = [];
  if (top !== undefined) raw.push(item(top, 300, 760, { size: 8 }));
  body.forEach((text, k) => {
    raw.push(item(text, 72, 700 - 14 * k));
  });
  if (bottom !== undefined) raw.push(item(bottom, 72, 30, { size: 8 }));
  return { lines: pageLines(toItems(raw).upright), bottom: 0, top: 792 };
}

const dropped = (pages: PageLines[]) => [...runningLines(pages)].map((l) => l.text);

describe("runningLines", () => {
  it("drops a header whose number follows the page and a footer repeated verbatim", () => {
    const pages = [1, 2, 3, 4].map((n) =>
      page(`Acme Corp | Q3 2023 Form 10-Q | ${n + 15}`, [`Body text of page ${n}.`], "Acme Corp Confidential"),
    );
    expect(dropped(pages).sort()).toEqual([
      "Acme Corp Confidential",
      "Acme Corp Confidential",
      "Acme Corp Confidential",
      "Acme Corp Confidential",
      "Acme Corp | Q3 2023 Form 10-Q | 16",
      "Acme Corp | Q3 2023 Form 10-Q | 17",
      "Acme Corp | Q3 2023 Form 10-Q | 18",
      "Acme Corp | Q3 2023 Form 10-Q | 19",
    ]);
  });

  it("keeps numbered headings at the tops of pages, lines on fewer than three pages, and body lines", () => {
    const pages = [
      page("Note 1", ["The same sentence on every page."]),
      page("Note 2", ["The same sentence on every page."]),
      page("Note 7", ["The same sentence on every page."], "Draft"),
      page(undefined, ["The same sentence on every page."], "Draft"),
    ];
    expect(dropped(pages)).toEqual([]);
  });

  it("keeps a repeated line in the top band that runs on into the body", () => {
    const pages = [1, 2, 3].map(() => ({
      lines: pageLines(toItems([item("Continued from the previous page", 72, 740), item("Body.", 72, 728)]).upright),
      bottom: 0,
      top: 792,
    }));
    expect(dropped(pages)).toEqual([]);
  });

  it("drops page numbers alone at the bottom, with an offset from the page index, roman ones too", () => {
    const pages = [0, 1, 2, 3, 4].map((n) => page(undefined, [`Body ${n}.`], `- ${n + 3} -`));
    expect(dropped(pages)).toHaveLength(5);
    const front = ["i", "ii", "iii", "iv"].map((n) => page(undefined, ["Preface."], n));
    expect(dropped(front)).toEqual(["i", "ii", "iii", "iv"]);
  });

  it("drops a header whose text changes by chapter when its number follows the page", () => {
    const pages = [2, 3, 4, 5].map((n) => page(`Chapter ${n < 4 ? 2 : 3}: Syntax | ${n + 1}`, [`Body ${n}.`]));
    expect(dropped(pages)).toHaveLength(4);
  });
});
