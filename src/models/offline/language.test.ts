import { describe, expect, it } from "vitest";
import { languageOf, latinScores } from "./language.js";

describe("languageOf", () => {
  it("does not take an English question for German because it uses a word German also spells", () => {
    expect(languageOf("What was the load limit of the old ramp?")).toBe("en");
    expect(languageOf("Who was in charge when the die cast line stopped?")).toBe("en");
    expect(languageOf("So what will the crane cost?")).toBe("en");
  });

  it("detects German from distinctive words or letters", () => {
    expect(languageOf("Was kostet die Lagerung pro Palette?")).toBe("de");
    expect(languageOf("Wann wurde das Tor erneuert?")).toBe("de");
    expect(languageOf("Größe?")).toBe("de");
    expect(latinScores("Was kostet die Lagerung?").de).toBeGreaterThan(latinScores("Was kostet die Lagerung?").en);
  });

  it("decides Chinese and Japanese by script", () => {
    expect(languageOf("码头的经理是谁？")).toBe("zh");
    expect(languageOf("倉庫の責任者は誰ですか？")).toBe("ja");
  });
});
