import { describe, expect, it } from "vitest";
import {
  AGGREGATION,
  FILLER,
  findCues,
  hasCue,
  LESS,
  languageOf,
  leadsWith,
  MORE,
  NEGATION,
  PRESENT_TIME,
  withoutCues,
  YESNO,
} from "./question-cues.js";

describe("languageOf", () => {
  it("tells English, German, Chinese and Japanese apart", () => {
    expect(languageOf("How many days do customers have to report damage?")).toBe("en");
    expect(languageOf("Wie viele Wochen haben Mieter nach der Übergabe Zeit?")).toBe("de");
    expect(languageOf("Was ist bei VF-17 passiert?")).toBe("de");
    expect(languageOf("上海仓库的负责人是谁？")).toBe("zh");
    expect(languageOf("大阪の危険物倉庫はどの棟ですか？")).toBe("ja");
  });
});

describe("cue tables", () => {
  it("matches Latin cues as whole words, several words in a row, and clitics", () => {
    expect(hasCue("How many shipments went out?", AGGREGATION)).toBe(true);
    expect(hasCue("Show the manytown depot", AGGREGATION)).toBe(false);
    expect(findCues("What's the limit?", { en: ["what"], de: [], zh: [], ja: [] })).toHaveLength(1);
  });

  it("finds negation in each language", () => {
    expect(hasCue("Drivers may not exceed 9 hours.", NEGATION)).toBe(true);
    expect(hasCue("Fahrer dürfen das nicht.", NEGATION)).toBe(true);
    expect(hasCue("司机不得超过九小时。", NEGATION)).toBe(true);
    expect(hasCue("延長はできません。", NEGATION)).toBe(true);
    expect(hasCue("Drivers may extend twice a week.", NEGATION)).toBe(false);
  });

  it("finds comparison in each language", () => {
    expect(hasCue("which lasted longer", MORE)).toBe(true);
    expect(hasCue("welcher ist schneller", MORE)).toBe(true);
    expect(hasCue("哪个更快", MORE)).toBe(true);
    expect(hasCue("どちらが低いですか", LESS)).toBe(true);
    expect(hasCue("welcher ist langsamer", LESS)).toBe(true);
    expect(hasCue("which lasted longer", LESS)).toBe(false);
  });

  it("finds aggregation in each language", () => {
    expect(hasCue("Wie viele Pakete gingen nach Portugal?", AGGREGATION)).toBe(true);
    expect(hasCue("一共有多少票货？", AGGREGATION)).toBe(true);
    expect(hasCue("出荷の合計金額は？", AGGREGATION)).toBe(true);
    expect(hasCue("Who approves the claim?", AGGREGATION)).toBe(false);
  });

  it("finds present-time words in each language", () => {
    expect(hasCue("booked these days", PRESENT_TIME)).toBe(true);
    expect(hasCue("Was gilt derzeit?", PRESENT_TIME)).toBe(true);
    expect(hasCue("目前的规定是什么", PRESENT_TIME)).toBe(true);
    expect(hasCue("現在の規則", PRESENT_TIME)).toBe(true);
    expect(hasCue("the 2024 rules", PRESENT_TIME)).toBe(false);
  });

  it("reads lead cues only at the start, in the question's language", () => {
    expect(leadsWith("Is the hub open on Sunday?", YESNO.lead)).toBe(true);
    expect(leadsWith("When is the hub open?", YESNO.lead)).toBe(false);
    expect(leadsWith("Gibt es eine Ausnahme?", YESNO.lead)).toBe(true);
    // German "was" asks "what"; it is no English auxiliary there.
    expect(leadsWith("Was ist bei VF-17 passiert?", YESNO.lead)).toBe(false);
  });

  it("blanks cues without moving offsets", () => {
    const text = "What are the major changes?";
    const out = withoutCues(text, FILLER);
    expect(out).toHaveLength(text.length);
    expect(out).not.toContain("major");
    expect(withoutCues("教えてください", FILLER).trim()).toBe("");
  });
});
