import { describe, expect, it } from "vitest";
import { endingOf, type SplitWork, splitSentences } from "./sentences.js";

const texts = (text: string) => splitSentences(text).map((s) => s.text);

describe("splitSentences", () => {
  it("keeps English and German abbreviations and initials inside their sentence", () => {
    const text = "Ask Mr. T. Varga at the depot. Leitung: Dr. Ilse Brandt, z. B. per Mail. She left.";
    const parts = splitSentences(text);
    expect(parts.map((s) => s.text)).toEqual([
      "Ask Mr. T. Varga at the depot.",
      "Leitung: Dr. Ilse Brandt, z. B. per Mail.",
      "She left.",
    ]);
    for (const s of parts) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it("keeps a German ordinal day with its month, and ends a sentence at a number otherwise", () => {
    expect(texts("Die Wartung ist am 4. Oktober geplant. Sie dauert 2 Std.")).toEqual([
      "Die Wartung ist am 4. Oktober geplant.",
      "Sie dauert 2 Std.",
    ]);
    expect(texts("The fleet grew to 12. Then it shrank.")).toEqual(["The fleet grew to 12.", "Then it shrank."]);
  });

  it("ends a sentence at a class letter after a lower-case word, and never joins across a line break", () => {
    expect(texts("The yard is rated class C. Trucks wait outside.")).toEqual([
      "The yard is rated class C.",
      "Trucks wait outside.",
    ]);
    expect(texts("Contact: Dr.\n# Next heading")).toEqual(["Contact: Dr.", "# Next heading"]);
  });

  it("tells a full stop from an abbreviation", () => {
    expect(endingOf("It rose in 2031.")).toBe("stop");
    expect(endingOf("The driver left.")).toBe("stop");
    expect(endingOf("Call Dr.")).toBe("abbreviation");
    expect(endingOf("Dispatcher Ola J.")).toBe("abbreviation");
  });

  it("does work linear in the text, even for a long run of initials that all join", () => {
    const work = (n: number) => {
      const tally: SplitWork = { steps: 0 };
      const parts = splitSentences(`Mr. ${"Q. ".repeat(n)}Pell left.`, tally);
      expect(parts).toHaveLength(1);
      return tally.steps;
    };
    const small = work(2_000);
    const large = work(8_000);
    // Four times the text, about four times the steps (a re-slice per join would be sixteen times).
    expect(large / small).toBeLessThan(4.5);
    expect(large).toBeLessThan(8_000 * 3 * 12);
  });
});
