import { describe, expect, it } from "vitest";
import { hasAnswerType } from "./answer-types.js";

describe("hasAnswerType", () => {
  it("finds a duration with English, German, Chinese or Japanese units, and not a bare number", () => {
    expect(hasAnswerType("The test takes 45 minutes.", "duration")).toBe(true);
    expect(hasAnswerType("Die Druckprüfung des Tanks dauert 45 Minuten.", "duration")).toBe(true);
    expect(hasAnswerType("Die Frist beträgt 14 Tage.", "duration")).toBe(true);
    expect(hasAnswerType("压力测试需要45分钟。", "duration")).toBe(true);
    expect(hasAnswerType("検査は3時間かかります。", "duration")).toBe(true);
    expect(hasAnswerType("Dock 45 is closed.", "duration")).toBe(false);
    expect(hasAnswerType("Die Halle 7 ist geschlossen.", "duration")).toBe(false);
  });

  it("finds a date in English, German, Chinese and Japanese forms", () => {
    expect(hasAnswerType("It opened on 2026-03-01.", "date")).toBe(true);
    expect(hasAnswerType("Eröffnet im März.", "date")).toBe(true);
    expect(hasAnswerType("于3月5日开放。", "date")).toBe(true);
    expect(hasAnswerType("The gate is blue.", "date")).toBe(false);
  });
});
