import { describe, expect, it } from "vitest";
import { stripCitationMarkers } from "./citation-markers.js";

describe("stripCitationMarkers", () => {
  it.each([
    ["The window is 30 days [3].", "The window is 30 days."],
    ["The window is 30 days.[12] More.", "The window is 30 days. More."],
    ["Grew 4%[1, 2] and [1-3] then [^7]", "Grew 4% and then"],
    ["返金期間は30日です【3】。", "返金期間は30日です。"],
    ["Full-width ［３］ marker", "Full-width marker"],
    ["Tortoise 〔2〕 brackets", "Tortoise brackets"],
  ])("removes the markers in %j", (input, expected) => {
    expect(stripCitationMarkers(input)).toBe(expected);
  });

  it.each([
    "Section (3) of the contract applies.",
    "See [RFC 9110] and [note].",
    "Arrays hold [1234] only when long.",
    "A [] pair.",
  ])("leaves %j alone", (text) => {
    expect(stripCitationMarkers(text)).toBe(text);
  });

  it("handles long runs of spaces and brackets in one pass", () => {
    const spaces = " ".repeat(300_000);
    expect(stripCitationMarkers(`a${spaces}b${spaces}[1]`)).toBe(`a${spaces}b`);
    expect(stripCitationMarkers("[1,".repeat(100_000))).toBe("[1,".repeat(100_000));
  });
});
