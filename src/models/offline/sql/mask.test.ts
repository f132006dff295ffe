import { describe, expect, it } from "vitest";
import { findPhrase, Mask } from "./mask.js";

const spans = (text: string, phrase: string) => findPhrase(text, phrase).map((h) => text.slice(h.from, h.to));

describe("findPhrase", () => {
  it("finds a Latin phrase only as whole words", () => {
    expect(spans("orders from spain and spaniel owners", "spain")).toEqual(["spain"]);
    expect(findPhrase("respain", "spain")).toEqual([]);
    expect(findPhrase("spain2", "spain")).toEqual([]);
    expect(spans("kraków, łódź", "łódź")).toEqual(["łódź"]);
  });

  it("matches a phrase's words across any run of whitespace", () => {
    expect(spans("sent to new\n  york twice", "new york")).toEqual(["new\n  york"]);
    expect(findPhrase("newyork", "new york")).toEqual([]);
  });

  it("finds CJK phrases inside running text", () => {
    const text = "东京仓库和大阪仓库";
    expect(findPhrase(text, "大阪")).toEqual([{ from: 5, to: 7 }]);
  });

  it("returns every occurrence, left to right, without overlaps", () => {
    expect(findPhrase("aa aa aa", "aa")).toEqual([
      { from: 0, to: 2 },
      { from: 3, to: 5 },
      { from: 6, to: 8 },
    ]);
    expect(findPhrase("x x x", "x x")).toEqual([{ from: 0, to: 3 }]);
  });

  it("finds nothing for an empty phrase", () => {
    expect(findPhrase("anything", "  ")).toEqual([]);
  });
});

describe("Mask", () => {
  it("blanks what was taken and keeps offsets", () => {
    const mask = new Mask("count orders in march");
    for (const hit of findPhrase(mask.text, "march")) mask.take(hit.from, hit.to);
    expect(mask.visible()).toBe("count orders in      ");
    expect(mask.free(0, 5)).toBe(true);
    expect(mask.free(16, 18)).toBe(false);
  });
});
