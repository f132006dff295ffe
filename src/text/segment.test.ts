import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbitraryText } from "../../test/fixtures/text/arbitrary.js";
import { prose, type Shape } from "../../test/fixtures/text/prose.js";
import { type Segment, SLICE_CHARS, sentenceSegments, wordSegments } from "./segment.js";

const wordSegmenter = new Intl.Segmenter("und", { granularity: "word" });
const sentenceSegmenter = new Intl.Segmenter("und", { granularity: "sentence" });

function oneCall(segmenter: Intl.Segmenter, text: string): string[] {
  return [...segmenter.segment(text)].map((s) => `${s.index}:${s.segment}:${s.isWordLike === true}`);
}

function sliced(segments: Iterable<Segment>): string[] {
  return [...segments].map((s) => `${s.index}:${s.segment}:${s.isWordLike}`);
}

function expectTiling(text: string, segments: Segment[]): void {
  let at = 0;
  for (const s of segments) {
    expect(s.index).toBe(at);
    expect(s.segment.length).toBeGreaterThan(0);
    expect(text.slice(s.index, s.index + s.segment.length)).toBe(s.segment);
    at += s.segment.length;
  }
  expect(at).toBe(text.length);
}

describe("sliced segmentation", () => {
  it("tiles any text exactly, in order, whatever the slice size", () => {
    fc.assert(
      fc.property(arbitraryText(400), fc.integer({ min: 16, max: 300 }), (text, sliceChars) => {
        expectTiling(text, [...wordSegments(text, { sliceChars })]);
        expectTiling(text, [...sentenceSegments(text, { sliceChars })]);
      }),
      { numRuns: 300 },
    );
  });

  it("gives the same words and sentences as one call over realistic text in every language", () => {
    const shapes: Shape[] = ["markdown", "lines", "one-line", "cjk", "mixed"];
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom(...shapes),
        fc.integer({ min: 64, max: SLICE_CHARS }),
        (seed, shape, sliceChars) => {
          const text = prose({ seed, chars: 4_000, shape });
          expect(sliced(wordSegments(text, { sliceChars }))).toEqual(oneCall(wordSegmenter, text));
          expect(sliced(sentenceSegments(text, { sliceChars }))).toEqual(
            oneCall(sentenceSegmenter, text).map((s) => `${s.slice(0, s.lastIndexOf(":"))}:false`),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it("keeps a segment longer than many slices whole, as one call does", () => {
    const word = "a".repeat(20_000);
    expect(sliced(wordSegments(`${word} b`, { sliceChars: 256 }))).toEqual([
      `0:${word}:true`,
      "20000: :false",
      "20001:b:true",
    ]);
    const line = `${"word ".repeat(5_000)}end.`;
    const sentences = [...sentenceSegments(line, { sliceChars: 256 })];
    expect(sentences.map((s) => s.segment)).toEqual([line]);
  });

  it("never hands the segmenter more than a slice", () => {
    const seen: number[] = [];
    const original = Intl.Segmenter.prototype.segment;
    Intl.Segmenter.prototype.segment = function (this: Intl.Segmenter, input: string) {
      seen.push(input.length);
      return original.call(this, input);
    };
    try {
      const text = prose({ seed: 9, chars: 50_000, shape: "mixed" });
      const words = [...wordSegments(text)];
      const sentences = [...sentenceSegments(text)];
      expect(words.length).toBeGreaterThan(5_000);
      expect(sentences.length).toBeGreaterThan(500);
    } finally {
      Intl.Segmenter.prototype.segment = original;
    }
    expect(Math.max(...seen)).toBeLessThanOrEqual(SLICE_CHARS);
  });
});
