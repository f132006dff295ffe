import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbitraryText } from "../../test/fixtures/text/arbitrary.js";
import { prose } from "../../test/fixtures/text/prose.js";
import { SLICE_CHARS } from "./segment.js";
import { countTokens, queryTerms, searchText, sentences, tallyTokens, terms, tokensOf, words } from "./tokenize.js";

describe("tokenize", () => {
  it("splits Chinese into words and bigrams so differently segmented text still matches", () => {
    const doc = terms("退款超时是45秒。");
    const query = queryTerms("退款超时是多少？");
    expect(doc).toContain("退款");
    expect(query.filter((t) => doc.includes(t)).length).toBeGreaterThanOrEqual(2);
    expect(doc).toContain("超时");
  });

  it("keeps Japanese and German words", () => {
    expect(terms("返金のタイムアウトは45秒です")).toContain("返金");
    expect(terms("Die Rückerstattung beträgt 45 Sekunden")).toContain("rückerstattung");
  });

  it("drops stop words from queries and normalises case", () => {
    expect(queryTerms("What is the Refund timeout?")).toEqual(["refund", "timeout"]);
    expect(queryTerms("Which perks do band A and band B members get?")).toEqual([
      "perks",
      "band",
      "a",
      "b",
      "members",
      "get",
    ]);
    expect(queryTerms("A crane is a machine")).toEqual(["crane", "machine"]);
    expect(searchText("POST /v2/refunds")).toBe("post v2 refunds");
  });

  it("gives word offsets into the original text", () => {
    const text = "Hello, wörld";
    for (const w of words(text)) expect(text.slice(w.start, w.end)).toBe(w.word);
  });

  it("splits sentences in CJK and Latin text with exact offsets", () => {
    const text = "退款超时是45秒。退款服务由支付团队维护。 Then English. Done!";
    const parts = sentences(text);
    expect(parts.map((s) => s.text)).toEqual([
      "退款超时是45秒。",
      "退款服务由支付团队维护。",
      "Then English.",
      "Done!",
    ]);
    for (const s of parts) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it("never gives a term with a space, even where NFKC spells a mark with one", () => {
    // U+037A and U+00A8 decompose to a space and a combining mark.
    for (const text of ["\u037a", "a\u00a8b", "x \u037a y"]) {
      for (const term of terms(text)) expect(term).not.toMatch(/\s/);
      expect(searchText(text)).toBe(terms(text).join(" "));
    }
    expect(terms("\u037a")).toEqual(["\u0345"]);
  });

  it("counts CJK characters as tokens", () => {
    expect(countTokens("退款超时")).toBe(4);
    expect(countTokens("one two three")).toBe(4);
  });
});

describe("tokenize on any text", () => {
  it("word offsets point at the source, in order, for any Unicode text longer than a slice", () => {
    fc.assert(
      fc.property(arbitraryText(1_500), (text) => {
        let last = 0;
        for (const w of words(text)) {
          expect(text.slice(w.start, w.end)).toBe(w.word);
          expect(w.start).toBeGreaterThanOrEqual(last);
          last = w.end;
        }
      }),
      { numRuns: 150 },
    );
  });

  it("sentences are trimmed, non-empty, in order and point at the source", () => {
    fc.assert(
      fc.property(arbitraryText(1_500), (text) => {
        let last = 0;
        for (const s of sentences(text)) {
          expect(text.slice(s.start, s.end)).toBe(s.text);
          expect(s.text.trim()).toBe(s.text);
          expect(s.text.length).toBeGreaterThan(0);
          expect(s.start).toBeGreaterThanOrEqual(last);
          last = s.end;
        }
      }),
      { numRuns: 150 },
    );
  });

  it("never hands the segmenter more than a slice, whatever the text's size", () => {
    const seen: number[] = [];
    const original = Intl.Segmenter.prototype.segment;
    Intl.Segmenter.prototype.segment = function (this: Intl.Segmenter, input: string) {
      seen.push(input.length);
      return original.call(this, input);
    };
    const text = prose({ seed: 7, chars: 60_000, shape: "mixed" });
    try {
      expect(words(text).length).toBeGreaterThan(5_000);
      expect(sentences(text).length).toBeGreaterThan(500);
      expect(countTokens(text)).toBeGreaterThan(5_000);
      expect(terms(text).length).toBeGreaterThan(5_000);
    } finally {
      Intl.Segmenter.prototype.segment = original;
    }
    expect(Math.max(...seen)).toBeLessThanOrEqual(SLICE_CHARS);
  });

  it("counts a text as the sum of its lines' tallies", () => {
    const text = prose({ seed: 8, chars: 30_000, shape: "markdown" });
    const total = text.split("\n").reduce(
      (sum, line) => {
        const t = tallyTokens(line);
        return { cjk: sum.cjk + t.cjk, latin: sum.latin + t.latin };
      },
      { cjk: 0, latin: 0 },
    );
    expect(tallyTokens(text)).toEqual(total);
    expect(countTokens(text)).toBe(tokensOf(total));
  });
});
