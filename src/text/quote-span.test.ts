import { describe, expect, it } from "vitest";
import { quoteSpan } from "./quote-span.js";

const span = (text: string, quote: string) => {
  const found = quoteSpan(text, quote);
  return found && text.slice(found.start, found.end);
};

describe("quoteSpan", () => {
  it("finds an exact quote", () => {
    const text = "The gateway accepts frames up to 64 KB. Larger frames are refused.";
    expect(quoteSpan(text, "frames up to 64 KB")).toEqual({ start: 20, end: 38 });
  });

  it("finds a quote that differs in case, spacing, width and invisible characters", () => {
    const text = "Refunds  time\nout after 30\u200B seconds.";
    expect(span(text, "refunds time out after 30 seconds")).toBe("Refunds  time\nout after 30\u200B seconds");
    expect(span("ＡＰＩ limit is 100 requests", "api limit")).toBe("ＡＰＩ limit");
  });

  it("ignores quotation marks, ellipses and the fence's marks around a quote", () => {
    const text = "Employees get 25 days of paid leave a year.";
    expect(span(text, '"25 days of paid leave"')).toBe("25 days of paid leave");
    expect(span(text, "…25 days of paid leave...")).toBe("25 days of paid leave");
    expect(span(text, "[quoted] 25 days")).toBe("25 days");
  });

  it("works for Chinese, Japanese and German text", () => {
    expect(span("地面站的天线直径为十二米。", "天线直径为十二米")).toBe("天线直径为十二米");
    expect(span("打ち上げは午前四時に始まる。", "午前四時")).toBe("午前四時");
    expect(span("Die Druckprüfung dauert 45 Minuten.", "DRUCKPRÜFUNG dauert")).toBe("Druckprüfung dauert");
    expect(span("emoji 🚀 launch", "🚀 launch")).toBe("🚀 launch");
  });

  it("says when the quote is not there", () => {
    expect(quoteSpan("Nothing to see.", "something else")).toBeUndefined();
    expect(quoteSpan("Nothing to see.", "  ")).toBeUndefined();
  });

  it("finds a quote late in a long text", () => {
    const text = `${"word ".repeat(200_000)}needle here`;
    expect(quoteSpan(text, "needle here")).toEqual({ start: 1_000_000, end: 1_000_011 });
  });
});
