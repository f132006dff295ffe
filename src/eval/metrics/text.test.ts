import { describe, expect, it } from "vitest";
import { containsKeyword, containsSubstring, normaliseText, stripCitationMarkers } from "./text.js";

describe("text matching", () => {
  it("normalises case and whitespace", () => {
    expect(normaliseText("  45\n  Seconds ")).toBe("45 seconds");
    expect(containsKeyword("It times out after 45\nSECONDS [1].", "45 seconds")).toBe(true);
  });

  it("matches numbers only on token boundaries", () => {
    expect(containsKeyword("Tickets from 2026 were many.", "20")).toBe(false);
    expect(containsKeyword("There were 20 tickets in 2026.", "20")).toBe(true);
    expect(containsKeyword("145 ms", "45")).toBe(false);
    expect(containsKeyword("a 24-hour window", "24")).toBe(true);
    expect(containsKeyword("costs $450 a week", "$450")).toBe(true);
    expect(containsKeyword("it takes 2.5 hours", "2")).toBe(false);
    expect(containsKeyword("a ratio of 0.45", "45")).toBe(false);
    expect(containsKeyword("done in 45s", "45")).toBe(true);
    expect(containsKeyword("ends at 1,000.", "1,000")).toBe(true);
  });

  it("lets words inflect at the end but not at the start", () => {
    expect(containsKeyword("after the schema changes", "schema change")).toBe(true);
    expect(containsKeyword("the ticket was reopened", "open")).toBe(false);
    expect(containsKeyword("the ticket is open.", "open")).toBe(true);
  });

  it("matches CJK keywords inside running text", () => {
    expect(containsKeyword("退款请求在45秒后超时", "超时")).toBe(true);
  });

  it("removes citation markers", () => {
    expect(stripCitationMarkers("Two services [2, 3] and more [1].")).toBe("Two services   and more  .");
  });

  it("leak matching is a plain substring", () => {
    expect(containsSubstring("The band is 168,000 to 205,000", "168,000")).toBe(true);
    expect(containsSubstring("paid 4500 in total", "450")).toBe(true);
    expect(containsSubstring("nothing here", "450")).toBe(false);
  });
});
