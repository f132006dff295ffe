import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostileTexts } from "../../test/fixtures/hostile/long-text.js";
import { arbitraryText } from "../../test/fixtures/text/arbitrary.js";
import { SLICE_CHARS } from "../text/segment.js";
import { countTokens, searchText } from "../text/tokenize.js";
import { type ChunkOptions, chunkDocument } from "./chunker.js";

/** Chunks of `text` are exact, trimmed, ordered slices that together hold every non-space character. */
function expectSoundChunks(text: string, options: ChunkOptions): void {
  const chunks = chunkDocument({ doc: { id: "d", text }, ...options });
  const covered = new Uint8Array(text.length);
  const problems: string[] = [];
  let lastStart = -1;
  let lastEnd = -1;
  chunks.forEach((chunk, i) => {
    if (chunk.text !== text.slice(chunk.start, chunk.end)) problems.push(`${i}: text is not the slice`);
    if (chunk.text.length === 0 || chunk.text.trim() !== chunk.text) problems.push(`${i}: empty or untrimmed`);
    if (chunk.id !== `d::${i}`) problems.push(`${i}: id ${chunk.id}`);
    // Starts strictly increase; ends never decrease. (A repeated sentence can end a piece where the one
    // before ended, when it and the next sentence together exceed the target: a known quirk of packing.)
    if (chunk.start <= lastStart || chunk.end < lastEnd) problems.push(`${i}: out of order`);
    lastStart = chunk.start;
    lastEnd = chunk.end;
    covered.fill(1, chunk.start, chunk.end);
  });
  const lost = firstLost(text, covered);
  if (lost >= 0) problems.push(`character ${lost} (${JSON.stringify(text[lost])}) is in no chunk`);
  expect(problems).toEqual([]);
}

function firstLost(text: string, covered: Uint8Array): number {
  for (let i = 0; i < text.length; i++) if (covered[i] === 0 && !/\s/.test(text[i] as string)) return i;
  return -1;
}

const SIZES: ChunkOptions[] = [{}, { targetTokens: 20, maxTokens: 30 }, { targetTokens: 8, maxTokens: 12 }];

describe("chunkDocument on any text", () => {
  it("offsets point at the source, chunks are in order and cover every non-space character", () => {
    fc.assert(
      fc.property(arbitraryText(1_500), fc.constantFrom(...SIZES), (text, options) => expectSoundChunks(text, options)),
      { numRuns: 200 },
    );
  });

  it("counts each chunk's tokens and index text as countTokens and searchText do on the chunk alone", () => {
    fc.assert(
      fc.property(arbitraryText(1_500), fc.constantFrom(...SIZES), (text, options) => {
        for (const chunk of chunkDocument({ doc: { id: "d", text }, ...options })) {
          expect(chunk.tokens).toBe(countTokens(chunk.text));
          expect(chunk.searchText).toBe(searchText(chunk.text));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("agrees with searchText on a mark NFKC spells with a space (a counterexample the property found)", () => {
    for (const text of ["\u037a", "before \u037a after"]) {
      for (const chunk of chunkDocument({ doc: { id: "d", text } }))
        expect(chunk.searchText).toBe(searchText(chunk.text));
    }
  });
});

describe("chunkDocument on hostile text", () => {
  for (const [name, text] of Object.entries(hostileTexts(200_000))) {
    it(`${name}: sound chunks, the segmenter never sees more than a slice`, () => {
      const seen: number[] = [];
      const original = Intl.Segmenter.prototype.segment;
      Intl.Segmenter.prototype.segment = function (this: Intl.Segmenter, input: string) {
        seen.push(input.length);
        return original.call(this, input);
      };
      try {
        expectSoundChunks(text, {});
      } finally {
        Intl.Segmenter.prototype.segment = original;
      }
      expect(Math.max(...seen)).toBeLessThanOrEqual(SLICE_CHARS);
    });
  }
});
