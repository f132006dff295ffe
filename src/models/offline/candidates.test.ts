import { describe, expect, it } from "vitest";
import { decompose } from "./analyze.js";
import { cjkNamesHeld, wordTerms } from "./candidates.js";

describe("wordTerms", () => {
  it("drops CJK pairs that straddle two words but keeps the words", () => {
    const part = decompose("地面站主天线的直径是多少？")[0]!;
    const terms = wordTerms(part);
    expect(terms).toContain("直径");
    expect(terms).not.toContain("径是");
  });
});

describe("cjkNamesHeld", () => {
  it("needs every long CJK word of the question in the answer's sentences", () => {
    const part = decompose("名古屋倉庫の入荷受付時間は何時から何時までですか？")[0]!;
    expect(cjkNamesHeld(part, "大阪南港倉庫: 入荷受付は 8:00〜17:00 です。", 3)).toBe(false);
    expect(cjkNamesHeld(part, "名古屋倉庫: 入荷受付は 8:00〜17:00 です。", 3)).toBe(true);
  });
});
