import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { latinWordSegments } from "./latin-words.js";

const icu = new Intl.Segmenter("und", { granularity: "word" });

function byIcu(text: string): string[] {
  return [...icu.segment(text)].map((s) => `${s.index}:${s.segment}:${s.isWordLike === true}`);
}

function byLoop(text: string): string[] | undefined {
  return latinWordSegments(text)?.map((s) => `${s.index}:${s.segment}:${s.isWordLike}`);
}

/** Every character the loop takes on, and a few it must decline. */
const TAKEN = [
  ...Array.from({ length: 0x100 }, (_, c) => String.fromCharCode(c)).filter((ch) => byLoop(ch) !== undefined),
];
const FOCUS = ["a", "Z", "é", "ß", "1", "0", ".", "'", "’", "‘", ":", ",", ";", "_", " ", "\n", "\r", "\t", "-", '"'];

describe("latinWordSegments", () => {
  it("takes on ASCII, Latin-1 letters and common typographic marks, and declines the rest", () => {
    expect(TAKEN.length).toBeGreaterThan(190);
    for (const ch of ["\u00ad", "\u0301", "\u200b", "退", "€x\u2060", "𠀀", "\u0000"])
      expect(byLoop(ch)).toBeUndefined();
  });

  it("gives ICU's segments for every pair of characters it takes on", () => {
    const wide = ["\u2018", "\u2019", "\u201c", "\u201d", "\u2013", "\u2014", "\u2022", "\u2026", "\u20ac"];
    const all = [...TAKEN, ...wide];
    const wrong: string[] = [];
    for (const a of all) for (const b of all) if (`${byLoop(a + b)}` !== `${byIcu(a + b)}`) wrong.push(a + b);
    expect(wrong).toEqual([]);
  });

  it("gives ICU's segments for any text over its alphabet", () => {
    const unit = fc.oneof(fc.constantFrom(...FOCUS), fc.constantFrom(...TAKEN), fc.constantFrom("e.g.", "3.5", "a_b"));
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 80, size: "max" }), (text) => {
        expect(byLoop(text)).toEqual(byIcu(text));
      }),
      { numRuns: 5_000 },
    );
  });
});
