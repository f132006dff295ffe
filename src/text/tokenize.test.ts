import { describe, expect, it } from "vitest";
import { countTokens, queryTerms, searchText, sentences, terms, words } from "./tokenize.js";

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

  it("counts CJK characters as tokens", () => {
    expect(countTokens("退款超时")).toBe(4);
    expect(countTokens("one two three")).toBe(4);
  });
});
