import { describe, expect, it } from "vitest";
import { cjkGlosses, glossOf, LEXICON_OPTIONS } from "./lexicon.js";
import { coverage, fold, termSet } from "./overlap.js";
import { glossedBigrams, queryTerms, searchText } from "./tokenize.js";

describe("glossOf", () => {
  it("glosses a German word, its inflected form and a compound ending in a known word", () => {
    expect(glossOf("rechnung")).toEqual(["invoice"]);
    expect(glossOf("rechnungen")).toEqual(["invoice"]);
    expect(glossOf("paletten")).toEqual(["pallet"]);
    // A long known end glosses the compound; a short one only when the start is known too.
    expect(glossOf("hochregalstapler")).toEqual(["forklift"]);
    expect(glossOf("lieferzeit")).toEqual(["time", "delivery"]);
    expect(glossOf("wartezeit")).toBeUndefined();
  });

  it("leaves English words alone, also those ending in a short German word", () => {
    for (const word of ["percentage", "advantage", "delivery", "hostage", "villager"]) {
      expect(glossOf(word)).toBeUndefined();
    }
  });

  it("reads compounds only as far as its options allow", () => {
    expect(glossOf("hubstapler", { ...LEXICON_OPTIONS, longHead: 20 })).toBeUndefined();
  });
});

describe("cjkGlosses", () => {
  it("finds the longest known word at each position of a run", () => {
    const found = cjkGlosses("倉庫の温度と保険料金");
    expect(found.map((g) => g.gloss.join(" "))).toEqual(["warehouse", "temperature", "insurance", "price"]);
    expect(found[0]).toMatchObject({ start: 0, end: 2 });
  });
});

describe("cross-language terms", () => {
  it("indexes the English gloss of a foreign word next to the word itself", () => {
    expect(searchText("Die Rechnung kommt per Post").split(" ")).toEqual(
      expect.arrayContaining(["rechnung", "invoice"]),
    );
    expect(searchText("請求書は翌月に届きます").split(" ")).toContain("invoice");
    // English text is indexed as it was.
    expect(searchText("The invoice arrives by post")).toBe("the invoice arrives by post");
  });

  it("folds a German word to its gloss, so a German question covers an English passage", () => {
    expect(fold("rechnungen")).toBe(fold("invoice"));
    expect(coverage(["rechnung", "paletten"], termSet("Each invoice lists the pallets shipped."))).toBe(1);
    expect(coverage(["invoice"], termSet("Jede Rechnung nennt die Paletten."))).toBe(1);
  });

  it("lets a Japanese word's gloss stand for its character pairs", () => {
    const q = "倉庫の温度は？";
    expect(glossedBigrams(q)).toEqual(new Set(["倉庫", "温度"]));
    // Two glossed words side by side: the pair across their boundary goes too.
    expect(glossedBigrams("保険料金")).toContain("険料");
    expect(queryTerms(q)).toEqual(expect.arrayContaining(["warehouse", "temperature"]));
  });
});
